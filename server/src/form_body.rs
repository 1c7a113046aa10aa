//! Reading a posted `application/x-www-form-urlencoded` body, including repeated fields
//! (checkbox groups), which typed `Form` extraction cannot express.

use axum::Form;
use axum::body::Bytes;
use axum::extract::rejection::FormRejection;

use crate::error::AppError;
use crate::input_screen::{control_characters, is_clean};

/// A typed form, or the refusal (see [`AppError::rejected`]).
pub fn typed<T>(form: Result<Form<T>, FormRejection>) -> Result<T, AppError> {
    form.map(|Form(f)| f)
        .map_err(|rejection| AppError::rejected(rejection.status()))
}

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
/// chosen. Text with control characters is refused, as `input_screen` refuses it elsewhere.
pub async fn read_multipart(
    multipart: &mut axum::extract::Multipart,
    file_field: &str,
) -> Result<(FormBody, Option<Upload>), AppError> {
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
                let text = field.text().await.unwrap_or_default();
                if !is_clean(&name) || !is_clean(&text) {
                    return Err(control_characters());
                }
                fields.push((name, text));
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
    Ok((FormBody(fields), upload))
}
