#!/usr/bin/env python3
"""What is in a wasm module, by function, from its name section (issue 33).

    python3 tests/wasm-sizes.py target/wasm-split/release/split/warpscope.wasm [N]

Reads the main module as the splitter writes it, before wasm-opt (which drops
the names): the N largest functions (default 25), then the code by group
(the framework, serde_json, the app, the topics' validators, ...). Sizes are
of the code section's bodies before wasm-opt -Oz, so read them as shares.
"""
import sys, re
def leb(b, i):
    r = s = 0
    while True:
        x = b[i]; i += 1; r |= (x & 0x7f) << s; s += 7
        if x < 0x80: return r, i

def demangle(s):
    if not s.startswith('_ZN'): return s
    i = 3; parts = []
    while i < len(s) and s[i].isdigit():
        j = i
        while s[j].isdigit(): j += 1
        l = int(s[i:j]); parts.append(s[j:j+l]); i = j + l
    if parts and re.match(r'^h[0-9a-f]{16}$', parts[-1]): parts.pop()
    out = '::'.join(parts)
    for a, b in [('$LT$','<'),('$GT$','>'),('$u20$',' '),('$RF$','&'),('$BP$','*'),('$C$',','),('$u7b$','{'),('$u7d$','}'),('$u5b$','['),('$u5d$',']'),('$u27$',"'"),('$u3b$',';'),('$u2b$','+'),('$LP$','('),('$RP$',')')]:
        out = out.replace(a, b)
    out = out.replace('..', '::')
    out = re.sub(r'(^|::)_(?=[<$])', r'\1', out)
    return out

def parse(path):
    b = open(path, 'rb').read(); i = 8
    nimp_f = 0; code = []; names = {}; secs = {}
    while i < len(b):
        sid = b[i]; i += 1; size, i = leb(b, i); end = i + size
        secs[sid] = secs.get(sid, 0) + size
        if sid == 2:
            n, j = leb(b, i)
            for _ in range(n):
                l, j = leb(b, j); j += l; l, j = leb(b, j); j += l
                k = b[j]; j += 1
                if k == 0: _, j = leb(b, j); nimp_f += 1
                elif k == 1: j += 1; fl, j = leb(b, j); _, j = leb(b, j); 
                elif k == 2: fl, j = leb(b, j); _, j = leb(b, j)
                elif k == 3: j += 2
                if k == 1 and fl & 1: _, j = leb(b, j)
                if k == 2 and fl & 1: _, j = leb(b, j)
        elif sid == 10:
            n, j = leb(b, i)
            for _ in range(n):
                l, j = leb(b, j); code.append(l); j += l
        elif sid == 0:
            l, j = leb(b, i); nm = b[j:j+l].decode(); j += l
            secs['custom:'+nm] = size
            if nm == 'name':
                while j < end:
                    sub = b[j]; j += 1; sl, j = leb(b, j); se = j + sl
                    if sub == 1:
                        n, k = leb(b, j)
                        for _ in range(n):
                            idx, k = leb(b, k); l, k = leb(b, k); names[idx] = demangle(b[k:k+l].decode('utf8', 'replace')); k += l
                    j = se
        i = end
    return nimp_f, code, names, secs

nimp, code, names, secs = parse(sys.argv[1])
N = int(sys.argv[2]) if len(sys.argv) > 2 else 25
rows = sorted(((code[i], names.get(i + nimp, f"f{i + nimp}")) for i in range(len(code))), reverse=True)
total = sum(s for s, _ in rows)
print(f"{total} bytes of code in {len(rows)} functions (before wasm-opt); the {N} largest:")
for s, n in rows[:N]:
    print(f"  {s:6d} {n[:150]}")
print()
print("| group | code | share |")
print("|---|---|---|")
groups = [
 ('warpscope::ui (app and kit)', r'^<?warpscope::ui::'),
 ('yew / yew_router / gloo (the framework)', r'yew|gloo|route_recognizer|implicit_clone'),
 ('serde_json + zmij + serde derive visitors', r'serde_json|zmij|__Visitor|__Field|serde_core::de::impls'),
 ('warpscope topics\' validators and sims (ParamSpec checks, via TopicMeta)', r'warpscope::(sim|topics::(?!lazy_views)|bench)'),
 ('warpscope other (params, i18n, deck, lecture_deck, json, format)', r'warpscope::(params|i18n|deck|lecture_deck|json|format|message|topic::)'),
 ('js_sys / web_sys / wasm_bindgen', r'js_sys|web_sys|wasm_bindgen'),
 ('core::fmt + float formatting/parsing', r'core::fmt|flt2dec|dec2flt|3fmt|7flt2dec|7dec2flt'),
 ('hashbrown / alloc collections', r'hashbrown|btree|alloc::'),
 ('dlmalloc', r'dlmalloc'),
]
seen = set()
for name, rx in groups:
    s = 0
    for i, (size, n) in enumerate(rows):
        if i not in seen and re.search(rx, n):
            s += size
            seen.add(i)
    print(f"| {name} | {s / 1024:.1f} KB | {100 * s / total:.1f} % |")
rest = sum(size for i, (size, n) in enumerate(rows) if i not in seen)
print(f"| everything else (std, generic glue) | {rest / 1024:.1f} KB | {100 * rest / total:.1f} % |")
