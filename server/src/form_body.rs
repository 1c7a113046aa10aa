//! Reading a posted `application/x-www-form-urlencoded` body, including repeated fields
//! (checkbox groups), which typed `Form` extraction cannot express.

use axum::body::Bytes;

pub struct FormBody(Vec<(String, String)>);

impl FormBody {
    pub fn parse(body: &Bytes) -> FormBody {
        FormBody(form_urlencoded::parse(body).into_owned().collect())
    }

    /// The first value of `name`, or "".
    pub fn get(&self, name: &str) -> String {
        self.0
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    }

    /// The first value of `name`, if the field was sent at all.
    pub fn opt(&self, name: &str) -> Option<String> {
        self.0
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    }

    /// Every value of `name`.
    pub fn all(&self, name: &str) -> Vec<String> {
        self.0
            .iter()
            .filter(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .collect()
    }
}

/// A file from a multipart form; `bytes` is `Err` when the body was cut off at the route's
/// size limit.
pub struct Upload {
    pub name: String,
    pub bytes: Result<Bytes, ()>,
}

/// Reads a multipart form: its text fields, and the file posted as `file_field` if one was
/// chosen.
pub async fn read_multipart(
    multipart: &mut axum::extract::Multipart,
    file_field: &str,
) -> (FormBody, Option<Upload>) {
    let mut fields = Vec::new();
    let mut upload = None;
    loop {
        match multipart.next_field().await {
            Ok(Some(field)) if field.name() == Some(file_field) => {
                let name = field.file_name().unwrap_or("").to_owned();
                let bytes = field.bytes().await.map_err(|_| ());
                if !name.is_empty() || bytes.as_ref().is_ok_and(|b| !b.is_empty()) {
                    upload = Some(Upload { name, bytes });
                }
            }
            Ok(Some(field)) => {
                let name = field.name().unwrap_or("").to_owned();
                fields.push((name, field.text().await.unwrap_or_default()));
            }
            Ok(None) => break,
            // A body cut off at the limit: what arrived so far is all there is.
            Err(_) => {
                upload.get_or_insert(Upload {
                    name: String::new(),
                    bytes: Err(()),
                });
                break;
            }
        }
    }
    (FormBody(fields), upload)
}
