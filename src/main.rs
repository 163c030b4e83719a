#[cfg(target_arch = "wasm32")]
fn main() {
    warpscope::ui::app::start();
}

/// Natively the binary prints the panel table of docs/panels.md (from the registry);
/// as `warpscope train-accuracy`, the training lens's accuracy table (for its dated
/// measurement file); as `warpscope strings <dir>`, writes the text files of both languages (shared, and one per topic)
/// into `<dir>` and fills `<dir>/index.html`'s boot placeholder with the start page
/// of both languages (`warpscope::prerender`), writes the panels' static snapshots into
/// `<dir>/snap/` (`warpscope::prerender::snap`) and the list of measured tables a page fetches
/// (trunk runs this after each build, see `Trunk.toml`).
/// The list of measured tables a page fetches, written beside the build
/// (`tools/split`'s `MEASURED_LIST`).
#[cfg(not(target_arch = "wasm32"))]
const MEASURED_LIST: &str = "warpscope-measured.txt";

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::io::Result<()> {
    use warpscope::i18n::{file_contents, file_name, part_file_contents, part_file_name, Lang};
    warpscope::topics::install_texts();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [cmd, dir] if cmd == "strings" => {
            let dir = std::path::Path::new(dir);
            let parts = warpscope::topics::text_parts();
            for lang in [Lang::En, Lang::Zh] {
                std::fs::write(dir.join(file_name(lang)), file_contents(lang, &parts))?;
                for (id, _) in &parts {
                    std::fs::write(dir.join(part_file_name(lang, id)), part_file_contents(lang, id, &parts))?;
                }
            }
            let index = dir.join("index.html");
            let html = std::fs::read_to_string(&index)?;
            let filled = warpscope::prerender::fill(&html, warpscope::topics::METAS)
                .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
            // The panels' static snapshots (`warpscope::prerender::snap`), named
            // by this build's fingerprint, which pre.js's tag in index.html carries.
            use warpscope::prerender::snap;
            let build = &warpscope::i18n::BUILD[..12];
            let (files, _) = snap::files(warpscope::topics::METAS, warpscope::topics::SNAPSHOTS, build);
            std::fs::create_dir_all(dir.join(snap::DIR))?;
            for (name, html) in &files {
                std::fs::write(dir.join(name), html)?;
            }
            let filled = snap::stamp(&filled, build, &snap::routes(&files))
                .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
            std::fs::write(&index, filled)?;
            // The measured tables a page fetches, for the service worker's
            // first-visit cache (tools/split reads this list, then removes it).
            let measured: String = warpscope::topics::measured_files().iter().map(|f| format!("{f}\n")).collect();
            std::fs::write(dir.join(MEASURED_LIST), measured)?;
        }
        [] => print!("{}", warpscope::topics::readme_table()),
        [cmd] if cmd == "train-accuracy" => print!("{}", warpscope::sim::train::measured::accuracy_markdown()),
        [cmd, flag] if cmd == "train-accuracy" && flag == "--points" => {
            print!("{}", warpscope::sim::train::measured::points_text())
        }
        [cmd] if cmd == "llm-accuracy" => {
            print!("{}\n{}", warpscope::sim::llm::accuracy_markdown(), warpscope::sim::llm::gqa_accuracy_markdown())
        }
        [cmd] if cmd == "llm-fit" => print!(
            "{}",
            warpscope::sim::llm::generate::source(
                &warpscope::sim::llm::Calibration::fresh(),
                &warpscope::sim::llm::Fit::fresh()
            )
        ),
        [cmd] if cmd == "train-fit" => {
            print!("{}", warpscope::sim::train::measured::fitted_source(&warpscope::sim::train::measured::Fit::fresh()))
        }
        _ => {
            eprintln!(
                "usage: warpscope [strings <dir> | train-accuracy [--points] | train-fit | llm-fit | llm-accuracy]"
            );
            std::process::exit(2);
        }
    }
    Ok(())
}
