//! Committed migrations never change (issue 31). sqlx refuses to start on a database whose
//! applied migration's checksum differs from the file's, so an edited migration stops every
//! installed platform's upgrade. `server/migrations.sha256` pins each file (`sha256sum`'s
//! format): a fix is a new migration, and a new migration adds its line with
//! `cd server && sha256sum migrations/NNNN_name.sql >> migrations.sha256`.

use std::collections::BTreeMap;
use std::path::Path;

use sha2::{Digest, Sha256};

fn server_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `migrations/NAME.sql` → its pinned SHA-256.
fn pinned() -> BTreeMap<String, String> {
    let pins = std::fs::read_to_string(server_dir().join("migrations.sha256")).unwrap();
    pins.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let (hash, name) = l.split_once("  ").expect("`HASH  migrations/NAME.sql`");
            (name.to_owned(), hash.to_owned())
        })
        .collect()
}

/// `migrations/NAME.sql` → the SHA-256 of the file as it is now.
fn present() -> BTreeMap<String, String> {
    std::fs::read_dir(server_dir().join("migrations"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sql"))
        .map(|p| {
            let name = format!("migrations/{}", p.file_name().unwrap().to_string_lossy());
            let hash = format!("{:x}", Sha256::digest(std::fs::read(&p).unwrap()));
            (name, hash)
        })
        .collect()
}

/// What is wrong with `present` against `pinned`, one line each.
fn problems(pinned: &BTreeMap<String, String>, present: &BTreeMap<String, String>) -> Vec<String> {
    let mut problems = Vec::new();
    for (name, hash) in pinned {
        match present.get(name) {
            None => problems.push(format!("{name} was committed and is gone")),
            Some(now) if now != hash => problems.push(format!(
                "{name} changed after it was committed: installed databases would refuse to \
                 start; restore it and write the fix as a new migration"
            )),
            Some(_) => {}
        }
    }
    for name in present.keys().filter(|n| !pinned.contains_key(*n)) {
        problems.push(format!(
            "{name} is not pinned: add it with `cd server && sha256sum {name} >> migrations.sha256`"
        ));
    }
    problems
}

#[test]
fn committed_migrations_never_change() {
    let problems = problems(&pinned(), &present());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn an_edited_a_lost_and_an_unpinned_migration_are_named() {
    let pinned = pinned();
    let mut present = pinned.clone();
    let first = pinned.keys().next().unwrap().clone();
    let last = pinned.keys().last().unwrap().clone();
    present.insert(first.clone(), "0".repeat(64));
    present.remove(&last);
    present.insert("migrations/9999_new.sql".into(), "1".repeat(64));
    let found = problems(&pinned, &present);
    assert_eq!(found.len(), 3, "{found:?}");
    assert!(found[0].starts_with(&format!("{first} changed after it was committed")));
    assert!(found[1].starts_with(&format!("{last} was committed and is gone")));
    assert!(found[2].starts_with("migrations/9999_new.sql is not pinned"));
}
