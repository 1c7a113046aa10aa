//! The demo's startup logos and covers and its founders' portraits, drawn by
//! `scripts/demo-images.py` and embedded here: written where an upload leaves them
//! (`startups::images`), so the demo's pages show real images.

use std::path::Path;

use crate::startups::images::{FOLDER, Kind, variant_file};

macro_rules! pictures {
    ($($slug:literal),* $(,)?) => {
        /// `(slug, [logo 96 px, 192 px], [cover 640 px, 1280 px])`.
        const PICTURES: &[(&str, [&[u8]; 2], [&[u8]; 2])] = &[$(
            (
                $slug,
                [
                    include_bytes!(concat!("images/", $slug, "-logo-96.webp")),
                    include_bytes!(concat!("images/", $slug, "-logo-192.webp")),
                ],
                [
                    include_bytes!(concat!("images/", $slug, "-cover-640.webp")),
                    include_bytes!(concat!("images/", $slug, "-cover-1280.webp")),
                ],
            ),
        )*];
    };
}

pictures!(
    "cemre-enerji",
    "cicek-tarim",
    "irmak-su-teknolojileri",
    "inci-saglik",
    "zeytin-finans",
    "kalkan-siber",
    "rota-mobilite",
    "dalga-iletisim",
    "pusula-yazilim",
    "odeme-koprusu",
    "sifa-genomik",
    "toprak-analitik",
    "yildiz-batarya",
    "guvenli-kimlik",
    "ag-kurdu",
    "hasat-pazari",
    "medikal-lojistik",
    "otopark-akil",
    "ekin-kredi",
    "oyun-atolyesi",
    "veri-kalesi",
    "ruzgar-gulu",
    "uydu-bag",
    "bisiklet-agi",
    "aile-hekimim",
    "unlu-tarifler"
);

/// Writes the `i`th demo startup's logo and cover and returns their stored names, or `None`
/// when the demo has no pictures for `slug`.
pub fn write(data_dir: &Path, i: usize, slug: &str) -> anyhow::Result<Option<(String, String)>> {
    let Some((_, logo, cover)) = PICTURES.iter().find(|(s, _, _)| *s == slug) else {
        return Ok(None);
    };
    let dir = data_dir.join(FOLDER);
    std::fs::create_dir_all(&dir)?;
    // Fixed names (hex, as the database asks): the demo's pictures never change.
    let names = (format!("{:032x}", 2 * i + 1), format!("{:032x}", 2 * i + 2));
    for (name, kind, files) in [(&names.0, Kind::Logo, logo), (&names.1, Kind::Cover, cover)] {
        for ((width, _), bytes) in kind.sizes().iter().zip(files.iter()) {
            std::fs::write(dir.join(variant_file(name, *width)), bytes)?;
        }
    }
    Ok(Some(names))
}

macro_rules! portraits {
    ($($name:literal => $file:literal),* $(,)?) => {
        /// `(founder, [96 px, 192 px])`: a drawing of each of the demo's fictional founders.
        const PORTRAITS: &[(&str, [&[u8]; 2])] = &[$(
            (
                $name,
                [
                    include_bytes!(concat!("images/founder-", $file, "-96.webp")),
                    include_bytes!(concat!("images/founder-", $file, "-192.webp")),
                ],
            ),
        )*];
    };
}

portraits!(
    "Ayşe Kaya" => "ayse-kaya",
    "Mehmet Demir" => "mehmet-demir",
    "Zeynep Çelik" => "zeynep-celik",
    "Emre Şahin" => "emre-sahin",
    "Elif Yıldız" => "elif-yildiz",
    "Burak Öztürk" => "burak-ozturk",
    "Selin Aydın" => "selin-aydin",
    "Can Arslan" => "can-arslan",
    "Deniz Koç" => "deniz-koc",
    "Gökhan Polat" => "gokhan-polat",
    "Merve Erdem" => "merve-erdem",
    "Onur Kılıç" => "onur-kilic",
);

/// Writes the portrait of `founder`, the `k`th founder of the `i`th demo startup, and returns its
/// stored name, or `None` when the demo has no portrait of them. Each startup's founder gets
/// files of their own, so replacing one photo in the editor (which deletes the old files) leaves
/// the same person's photo on another startup alone.
pub fn write_portrait(
    data_dir: &Path,
    i: usize,
    k: usize,
    founder: &str,
) -> anyhow::Result<Option<String>> {
    let Some((_, files)) = PORTRAITS.iter().find(|(name, _)| *name == founder) else {
        return Ok(None);
    };
    let dir = data_dir.join(FOLDER);
    std::fs::create_dir_all(&dir)?;
    // Above the logos' and covers' fixed names.
    let name = format!("{:032x}", 0x1_0000 + 2 * i + k);
    for ((width, _), bytes) in Kind::Photo.sizes().iter().zip(files.iter()) {
        std::fs::write(dir.join(variant_file(&name, *width)), bytes)?;
    }
    Ok(Some(name))
}
