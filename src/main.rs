#[cfg(target_arch = "wasm32")]
fn main() {
    warpscope::ui::start();
}

/// Natively the binary prints the README's panel table (from the registry).
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    print!("{}", warpscope::topics::readme_table());
}
