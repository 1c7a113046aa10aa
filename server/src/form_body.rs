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
