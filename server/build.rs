//! Builds the front-end (styles and React islands, through esbuild via npm) and embeds it,
//! with `public/` and the seed content, into the binary, so `target/release/ortak` is complete
//! on its own. Static files are compressed here once (brotli and gzip) instead of per request.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let manifest_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let root = manifest_dir.parent().unwrap().to_path_buf();
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    for watched in [
        "islands",
        "style",
        "public",
        "package.json",
        "package-lock.json",
        "build.mjs",
        "server/content",
        // `sqlx::migrate!` embeds this folder; without this line a new migration alone
        // would not rebuild the binary.
        "server/migrations",
    ] {
        println!("cargo::rerun-if-changed={}", root.join(watched).display());
    }
    println!("cargo::rerun-if-env-changed=ORTAK_NPM");

    let assets_dir = out.join("assets");
    build_frontend(&root, &assets_dir);

    let mut files: Vec<(String, PathBuf)> = Vec::new();
    collect(&assets_dir, &assets_dir, "/assets", &mut files);
    let public = root.join("public");
    collect(&public, &public, "", &mut files);
    files.retain(|(url, _)| url != "/assets/manifest.json");

    let compressed_dir = out.join("compressed");
    std::fs::create_dir_all(&compressed_dir).unwrap();
    let mut code = String::from("pub static FILES: &[StaticFile] = &[\n");
    for (i, (url, path)) in files.iter().enumerate() {
        if url.starts_with("/assets/") && path.starts_with(&public) {
            continue; // a stale copy of a developer's own `npm run build`; ours is in OUT_DIR
        }
        let bytes = std::fs::read(path).unwrap();
        let compressible = matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("css" | "js" | "svg" | "json" | "txt" | "xml" | "html" | "webmanifest")
        );
        let (br, gz) = if compressible {
            let br_path = compressed_dir.join(format!("{i}.br"));
            let gz_path = compressed_dir.join(format!("{i}.gz"));
            let mut br = Vec::new();
            {
                let mut w = brotli::CompressorWriter::new(&mut br, 4096, 11, 22);
                w.write_all(&bytes).unwrap();
            }
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
            gz.write_all(&bytes).unwrap();
            std::fs::write(&br_path, br).unwrap();
            std::fs::write(&gz_path, gz.finish().unwrap()).unwrap();
            (
                format!("Some(include_bytes!({:?}))", br_path.display().to_string()),
                format!("Some(include_bytes!({:?}))", gz_path.display().to_string()),
            )
        } else {
            ("None".to_owned(), "None".to_owned())
        };
        writeln!(
            code,
            "    StaticFile {{ path: {url:?}, raw: include_bytes!({:?}), br: {br}, gzip: {gz} }},",
            path.display().to_string()
        )
        .unwrap();
    }
    code.push_str("];\n");
    writeln!(
        code,
        "pub const MANIFEST: &str = include_str!({:?});",
        assets_dir.join("manifest.json").display().to_string()
    )
    .unwrap();
    std::fs::write(out.join("static_files.rs"), code).unwrap();

    embed_content(&manifest_dir.join("content"), &out);
}

fn build_frontend(root: &Path, assets_dir: &Path) {
    let npm = std::env::var("ORTAK_NPM").unwrap_or_else(|_| "npm".to_owned());
    let installed = root.join("node_modules/.package-lock.json");
    let lock = root.join("package-lock.json");
    let stale = match (installed.metadata(), lock.metadata()) {
        (Ok(i), Ok(l)) => i.modified().unwrap() < l.modified().unwrap(),
        _ => true,
    };
    if stale {
        run(
            Command::new(&npm)
                .arg("ci")
                .arg("--no-audit")
                .arg("--no-fund")
                .current_dir(root),
            "npm ci",
        );
    }
    run(
        Command::new(&npm)
            .args(["run", "--silent", "build"])
            .env("ORTAK_ASSETS_DIR", assets_dir)
            .current_dir(root),
        "npm run build",
    );
}

fn run(cmd: &mut Command, what: &str) {
    match cmd.status() {
        Ok(status) if status.success() => {}
        Ok(status) => panic!("`{what}` failed ({status}); the front-end could not be built"),
        Err(e) => {
            panic!("could not start `{what}` ({e}): Node.js and npm are needed to build Ortak")
        }
    }
}

fn collect(base: &Path, dir: &Path, prefix: &str, files: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect(base, &path, prefix, files);
        } else {
            let rel = path
                .strip_prefix(base)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            files.push((format!("{prefix}/{rel}"), path));
        }
    }
}

/// Seed content (policies, FAQ, blog posts) as `(relative path, text)` pairs.
fn embed_content(content: &Path, out: &Path) {
    let mut files = Vec::new();
    collect(content, content, "", &mut files);
    let mut code = String::from("pub static CONTENT: &[(&str, &str)] = &[\n");
    for (rel, path) in files {
        writeln!(
            code,
            "    ({:?}, include_str!({:?})),",
            &rel[1..],
            path.display().to_string()
        )
        .unwrap();
    }
    code.push_str("];\n");
    std::fs::write(out.join("content_files.rs"), code).unwrap();
}
