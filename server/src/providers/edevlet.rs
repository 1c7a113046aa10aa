//! The population registry's public TCKN check (KPSPublic `TCKimlikNoDogrula`, SOAP), behind
//! one small type so tests can point it at a local stand-in. Off unless `ORTAK_NVI_URL` is set.

use std::time::Duration;

pub struct IdentityCheck {
    url: String,
    http: reqwest::Client,
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

impl IdentityCheck {
    pub fn new(url: &str) -> anyhow::Result<IdentityCheck> {
        Ok(IdentityCheck {
            url: url.to_owned(),
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(10))
                .build()?,
        })
    }

    /// Whether the registry knows this TCKN with this name and birth year. Names are sent in
    /// Turkish upper case, as the registry stores them.
    pub async fn verify(
        &self,
        tckn: &str,
        first_name: &str,
        last_name: &str,
        birth_year: i32,
    ) -> anyhow::Result<bool> {
        let upper = ortak_app::domain::text::turkish_uppercase;
        let body = format!(
            r#"<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><TCKimlikNoDogrula xmlns="http://tckimlik.nvi.gov.tr/WS"><TCKimlikNo>{}</TCKimlikNo><Ad>{}</Ad><Soyad>{}</Soyad><DogumYili>{}</DogumYili></TCKimlikNoDogrula></soap:Body></soap:Envelope>"#,
            escape(tckn),
            escape(&upper(first_name)),
            escape(&upper(last_name)),
            birth_year
        );
        let text = self
            .http
            .post(&self.url)
            .header("Content-Type", "text/xml; charset=utf-8")
            .header(
                "SOAPAction",
                "\"http://tckimlik.nvi.gov.tr/WS/TCKimlikNoDogrula\"",
            )
            .body(body)
            .send()
            .await?
            .error_for_status()?
            .text()
            .await?;
        match text
            .split("<TCKimlikNoDogrulaResult>")
            .nth(1)
            .and_then(|r| r.split('<').next())
        {
            Some("true") => Ok(true),
            Some("false") => Ok(false),
            _ => anyhow::bail!("unexpected answer from the identity service"),
        }
    }
}
