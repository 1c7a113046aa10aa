// fluent-templates embeds locales/ at compile time; rebuild when any .ftl changes.
fn main() {
    println!("cargo::rerun-if-changed=../locales");
}
