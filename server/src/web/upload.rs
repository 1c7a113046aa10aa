//! Uploads: the one extractor for multipart forms ([`Upload`]). The file part is streamed to
//! a temporary file in the data folder (`DATA/tmp`), never held whole in memory: only its
//! first bytes are kept, to tell its kind by content. A file over the form's limit is read to
//! the end of the body and thrown away (answering mid-body would break the browser's send),
//! and the route's body limit cuts off anything far larger. The text fields are screened for
//! control characters, the CSRF token among them is checked, and they are deserialized into the
//! form's typed struct as [`super::form::Form`] does. A temporary file is deleted when dropped
//! unless a handler keeps it ([`UploadedFile::keep`]); the `upload-temp-files` job removes
//! leftovers of a crash.

pub use super::kept_file::Kept;
use std::path::{Path, PathBuf};

use axum::extract::multipart::Field;
use axum::extract::{FromRequest, Multipart, Request};
use axum::http::{HeaderMap, StatusCode};
use serde::de::DeserializeOwned;
use tokio::io::AsyncWriteExt;

use super::input_screen::{control_characters, is_clean};
use super::{Ctx, csrf, files};
use crate::error::AppError;
use crate::state::AppState;

/// Where files wait under the data folder while a request reads them.
pub const TEMP_FOLDER: &str = "tmp";
/// The longest text field an upload form takes (its longest field holds 1,000 characters).
const MAX_TEXT_BYTES: usize = 64 * 1024;

/// What an upload form declares besides its text fields (`Self`, deserialized like a `Form`:
/// `#[derive(Deserialize, Default)] #[serde(default)]`, no `csrf` field).
pub trait UploadForm: DeserializeOwned {
    /// The name of the file input.
    const FILE_FIELD: &'static str;
    /// The largest file kept; a larger one arrives [`UploadedFile::too_large`].
    const MAX_FILE_BYTES: u64;
    /// How many of the first bytes are kept to tell the file's kind.
    const SNIFF_BYTES: usize = 64;
}

/// A multipart form whose `csrf` field matched this browser's token: its text fields, and the
/// file if one was chosen.
pub struct Upload<T> {
    pub fields: T,
    pub file: Option<UploadedFile>,
}

/// A file as it arrived.
pub struct UploadedFile {
    /// The name the browser gave it: shown back, never used as a path.
    pub name: String,
    /// Its first bytes (up to the form's `SNIFF_BYTES`).
    pub head: Vec<u8>,
    /// Its size in bytes, as far as it was read.
    pub size: u64,
    /// The file on disk; `None` when it was over the limit or cut off (nothing was kept).
    temp: Option<TempFile>,
}

impl UploadedFile {
    /// Over the form's limit, or cut off at the route's body limit.
    pub fn too_large(&self) -> bool {
        self.temp.is_none()
    }

    /// Whether `needle` occurs in the file's first `limit` bytes (read from disk in small
    /// pieces, for kinds its first bytes do not tell).
    pub async fn contains_within(&self, needle: &[u8], limit: u64) -> Result<bool, AppError> {
        use tokio::io::AsyncReadExt;
        let Some(temp) = &self.temp else {
            return Ok(false);
        };
        let file = tokio::fs::File::open(&temp.path)
            .await
            .map_err(anyhow::Error::from)?;
        let mut file = file.take(limit);
        let mut window = Vec::with_capacity(64 * 1024 + needle.len());
        let mut piece = vec![0u8; 64 * 1024];
        loop {
            let n = file.read(&mut piece).await.map_err(anyhow::Error::from)?;
            if n == 0 {
                return Ok(false);
            }
            window.extend_from_slice(&piece[..n]);
            if window.windows(needle.len()).any(|w| w == needle) {
                return Ok(true);
            }
            // Keep the tail, in case the needle straddles two pieces.
            let keep = needle.len().saturating_sub(1).min(window.len());
            window.drain(..window.len() - keep);
        }
    }

    /// The whole file (bounded by its form's limit), for kinds checked by decoding them.
    pub async fn read(&self) -> Result<Vec<u8>, AppError> {
        let temp = self
            .temp
            .as_ref()
            .ok_or_else(|| anyhow::anyhow!("an upload over its limit cannot be read"))?;
        Ok(tokio::fs::read(&temp.path)
            .await
            .map_err(anyhow::Error::from)?)
    }

    /// Moves the file to `DATA/folder/name` (creating the folder); it goes again unless
    /// [`Kept::committed`] is called once the transaction that names it has committed.
    pub async fn keep(
        mut self,
        data_dir: &Path,
        folder: &str,
        name: &str,
    ) -> Result<Kept, AppError> {
        let temp = self
            .temp
            .take()
            .ok_or_else(|| anyhow::anyhow!("an upload over its limit cannot be kept"))?;
        let dir = data_dir.join(folder);
        tokio::fs::create_dir_all(&dir)
            .await
            .map_err(anyhow::Error::from)?;
        let path = dir.join(name);
        tokio::fs::rename(&temp.path, &path)
            .await
            .map_err(anyhow::Error::from)?;
        temp.kept();
        Ok(Kept::new(path))
    }
}

/// A file under `DATA/tmp`, deleted when dropped unless kept.
struct TempFile {
    path: PathBuf,
    kept: bool,
}

impl TempFile {
    fn kept(mut self) {
        self.kept = true;
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if !self.kept {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Why a file part could not be received.
enum Broken {
    /// The body broke off (the route's body limit): the rest never arrives.
    Cut,
    /// Writing the temporary file failed (a full disk).
    Disk(std::io::Error),
}

/// Streams one file part to a temporary file: its first `sniff` bytes, its size, and the file
/// unless it was over `max` (then it is read to its end and dropped).
async fn receive(
    field: &mut Field<'_>,
    data_dir: &Path,
    max: u64,
    sniff: usize,
) -> Result<(Vec<u8>, u64, Option<TempFile>), Broken> {
    let dir = data_dir.join(TEMP_FOLDER);
    tokio::fs::create_dir_all(&dir)
        .await
        .map_err(Broken::Disk)?;
    let temp = TempFile {
        path: dir.join(files::random_name("part")),
        kept: false,
    };
    let mut file = tokio::fs::File::create(&temp.path)
        .await
        .map_err(Broken::Disk)?;
    // Each write is handed to a blocking thread with a copy of its bytes: keep those small.
    file.set_max_buf_size(64 * 1024);
    let mut out = Some(file);
    let (mut head, mut size) = (Vec::new(), 0u64);
    while let Some(chunk) = field.chunk().await.map_err(|_| Broken::Cut)? {
        size += chunk.len() as u64;
        if head.len() < sniff {
            let take = (sniff - head.len()).min(chunk.len());
            head.extend_from_slice(&chunk[..take]);
        }
        if size > max {
            // Over the limit: stop writing, keep reading to the end of the body.
            out = None;
        } else if let Some(file) = &mut out {
            file.write_all(&chunk).await.map_err(Broken::Disk)?;
        }
    }
    match out {
        Some(mut file) => {
            file.flush().await.map_err(Broken::Disk)?;
            Ok((head, size, Some(temp)))
        }
        None => Ok((head, size, None)),
    }
}

impl<T: UploadForm> FromRequest<AppState> for Upload<T> {
    type Rejection = AppError;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, AppError> {
        let ctx = request
            .extensions()
            .get::<Ctx>()
            .cloned()
            .ok_or_else(|| AppError::Internal(anyhow::anyhow!("request context missing")))?;
        let headers = request.headers().clone();
        let mut multipart = Multipart::from_request(request, state)
            .await
            .map_err(|rejection| AppError::rejected(rejection.status()))?;
        let data_dir = &state.shared().data_dir;
        // A disk short of room keeps no file: the body is read and dropped, then 503.
        let disk_low = disk_low(state);
        let max_file = if disk_low { 0 } else { T::MAX_FILE_BYTES };
        let mut text = Vec::new();
        let mut file = None;
        // Refused only once the whole body is read: answering mid-body breaks the client's send.
        let mut refused = false;
        let mut oversized = false;
        loop {
            match multipart.next_field().await {
                Ok(Some(mut field)) if field.name() == Some(T::FILE_FIELD) => {
                    let name: String = field
                        .file_name()
                        .unwrap_or("")
                        .chars()
                        .filter(|c| !c.is_control())
                        .take(200)
                        .collect();
                    match receive(&mut field, data_dir, max_file, T::SNIFF_BYTES).await {
                        Ok((head, size, temp)) => {
                            if !name.is_empty() || size > 0 {
                                file = Some(UploadedFile {
                                    name,
                                    head,
                                    size,
                                    temp,
                                });
                            }
                        }
                        Err(Broken::Cut) => {
                            file = Some(cut_off(name));
                            break;
                        }
                        Err(Broken::Disk(e)) => return Err(anyhow::Error::from(e).into()),
                    }
                }
                Ok(Some(mut field)) => {
                    let name = field.name().unwrap_or("").to_owned();
                    let Some(value) = read_text(&mut field).await else {
                        oversized = true;
                        continue;
                    };
                    refused |= !is_clean(&name) || !is_clean(&value);
                    text.push((name, value));
                }
                Ok(None) => break,
                // A body cut off at the route's limit: what arrived so far is all there is.
                Err(_) => {
                    file.get_or_insert_with(|| cut_off(String::new()));
                    break;
                }
            }
        }
        if oversized {
            return Err(AppError::rejected(StatusCode::PAYLOAD_TOO_LARGE));
        }
        if disk_low {
            tracing::warn!("an upload was refused: the data folder's disk is nearly full");
            return Err(AppError::Refused(
                StatusCode::SERVICE_UNAVAILABLE,
                "storage-full",
            ));
        }
        if refused {
            return Err(control_characters());
        }
        let fields = typed_fields(&text, &ctx, &headers)?;
        Ok(Upload { fields, file })
    }
}

/// The text fields of a multipart form whose `csrf` field matched this browser's token, as `T`.
fn typed_fields<T: DeserializeOwned>(
    text: &[(String, String)],
    ctx: &Ctx,
    headers: &HeaderMap,
) -> Result<T, AppError> {
    let token = text
        .iter()
        .find(|(k, _)| k == "csrf")
        .map_or("", |(_, v)| v.as_str());
    csrf::verify(ctx.csrf_cookie.as_deref(), token, headers)?;
    let encoded = form_urlencoded::Serializer::new(String::new())
        .extend_pairs(text.iter().filter(|(k, _)| k != "csrf"))
        .finish();
    serde_html_form::from_str(&encoded)
        .map_err(|_| AppError::rejected(StatusCode::UNPROCESSABLE_ENTITY))
}

/// Whether the data folder's disk has less free space than uploads may leave.
fn disk_low(state: &AppState) -> bool {
    super::files::free_bytes(&state.shared().data_dir)
        .is_some_and(|free| free < state.shared().min_free_disk_bytes)
}

/// A text field's value, read to its end; `None` when it is over [`MAX_TEXT_BYTES`] (its
/// bytes are read but not kept). Text that is not UTF-8 reads as empty.
async fn read_text(field: &mut Field<'_>) -> Option<String> {
    let mut bytes = Vec::new();
    let mut over = false;
    while let Ok(Some(chunk)) = field.chunk().await {
        over |= bytes.len() + chunk.len() > MAX_TEXT_BYTES;
        if !over {
            bytes.extend_from_slice(&chunk);
        }
    }
    (!over).then(|| String::from_utf8(bytes).unwrap_or_default())
}

/// A file part the body limit cut off.
fn cut_off(name: String) -> UploadedFile {
    UploadedFile {
        name,
        head: Vec::new(),
        size: 0,
        temp: None,
    }
}

/// Deletes temporary files older than an hour (left by a crash mid-request); returns how many.
pub async fn purge_temp_files(data_dir: &Path) -> anyhow::Result<u64> {
    let mut entries = match tokio::fs::read_dir(data_dir.join(TEMP_FOLDER)).await {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(e.into()),
    };
    let mut removed = 0;
    while let Some(entry) = entries.next_entry().await? {
        let old = entry
            .metadata()
            .await?
            .modified()?
            .elapsed()
            .is_ok_and(|age| age > std::time::Duration::from_secs(3600));
        if old && tokio::fs::remove_file(entry.path()).await.is_ok() {
            removed += 1;
        }
    }
    Ok(removed)
}
