//! Startups as investors meet them: the public catalogue with its filters (`catalogue`), a
//! startup's page and presentation (`detail`), favourites (`favorites`), the card every list
//! shares (`cards`) and quarterly reports' storage (`reports`, used by staff and fund teams).
//! All of the area's SQL is in `queries`. Whether a member may pre-invest early (VIP groups)
//! is answered here too, since a startup's page shows it; `investing` builds on this area.

mod cards;
mod catalogue;
mod detail;
pub mod documents;
mod favorites;
pub mod images;
mod kept;
pub use favorites::followed;
mod queries;
pub mod reports;
mod track_record;

pub use cards::published_card;
pub use queries::founders;
pub use queries::images::{images as stored_images, set_founder_photo, set_image};
pub use queries::{CardRow, is_vip, slug_and_name};

use crate::web::{Access, Routes};

pub fn routes() -> Vec<Routes> {
    let public = Routes::new(Access::Public)
        .get("/startups", catalogue::list)
        .get("/track-record", track_record::page)
        .get("/media/startups/{file}", images::serve);
    let member = Routes::new(Access::Member)
        .get("/startups/{slug}", detail::detail)
        .get("/startups/{slug}/pages/{n}", detail::presentation_page)
        .get("/startups/{slug}/documents/{id}", documents::open)
        .get("/favorites", favorites::favorites)
        .post("/favorites/{slug}", favorites::toggle_favorite);
    vec![public, member]
}
