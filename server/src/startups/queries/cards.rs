//! A startup's card and the lists of cards: the catalogue's page with its facets (its filters
//! are the one dynamic query, built with a `QueryBuilder` from known fragments only) and a
//! member's saved startups. Lists come from SQLite as one JSON array (`CARD_JSON`): one value
//! crosses from SQLite's thread instead of a row at a time, each waking the request's task
//! (issue 29).

use ortak_app::domain::rounds::RoundStatus;
use ortak_app::domain::startups::{
    COMPLETION_RANGES, GOAL_RANGES, INVESTOR_RANGES, ListQuery, PeriodKind, Range, SECTORS, Sort,
    find_range,
};
use ortak_app::i18n::Locale;
use sqlx::{QueryBuilder, Sqlite, SqlitePool};
use time::{Date, OffsetDateTime};

/// A startup as its card shows it (whether a member saved it is theirs: `kept::Mine`).
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
pub struct CardRow {
    pub id: i64,
    pub slug: String,
    pub name: String,
    pub sector: String,
    pub fund: String,
    pub city: String,
    pub funding_goal_kurus: i64,
    /// Received in escrow, kept from the ledger by the database.
    pub raised_kurus: i64,
    pub investor_count: i64,
    pub funded: bool,
    pub round_status: RoundStatus,
    pub period_kind: PeriodKind,
    #[serde(with = "iso_date")]
    pub period_starts_on: Date,
    #[serde(with = "iso_date")]
    pub period_ends_on: Date,
    #[serde(with = "iso_date::option")]
    pub vip_until: Option<Date>,
    /// The stored logo's and cover's names (`images`), if staff uploaded them.
    pub logo: Option<String>,
    pub cover: Option<String>,
    /// A closed round: what escrow held at its close, from how many investors, and when the
    /// close was settled.
    pub closing_total_kurus: Option<i64>,
    pub closing_investors: Option<i64>,
    #[serde(with = "time::serde::timestamp::milliseconds_i64::option")]
    pub closed_at: Option<OffsetDateTime>,
}

time::serde::format_description!(iso_date, Date, "[year]-[month]-[day]");

/// A card of `startups s JOIN funds fu` as a JSON object with `CardRow`'s fields (`closed_at`
/// in Unix milliseconds, `funded` as a JSON boolean).
const CARD_JSON: &str =
    "json_object('id', s.id, 'slug', s.slug, 'name', s.name, 'sector', s.sector,
    'fund', fu.name, 'city', s.city, 'funding_goal_kurus', s.funding_goal_kurus,
    'raised_kurus', s.raised_kurus, 'investor_count', s.investor_count,
    'funded', json(iif(s.funded, 'true', 'false')), 'round_status', s.round_status,
    'period_kind', s.period_kind, 'period_starts_on', s.period_starts_on,
    'period_ends_on', s.period_ends_on, 'vip_until', s.vip_until, 'logo', s.logo,
    'cover', s.cover, 'closing_total_kurus', s.closing_total_kurus,
    'closing_investors', s.closing_investors,
    'closed_at', CAST(unixepoch(s.closed_at, 'subsec') * 1000 AS INTEGER))";

/// Cards from the JSON array a statement built with `CARD_JSON`.
fn cards_from_json(json: &str) -> sqlx::Result<Vec<CardRow>> {
    serde_json::from_str(json).map_err(|e| sqlx::Error::Decode(Box::new(e)))
}

/// Adds `SELECT json_group_array(…)` of the [`CardRow`]s of `startups s` joined to `funds fu`,
/// in the order `key direction, s.id direction`; the caller adds the filters, the same
/// `ORDER BY` with its page's `LIMIT`, and a closing parenthesis. The array keeps that order
/// itself (`ORDER BY` in the aggregate), however SQLite reads the subquery.
fn push_cards_json(qb: &mut QueryBuilder<Sqlite>, key: &str, direction: &str) {
    qb.push(format_args!(
        "SELECT json_group_array(json(card) ORDER BY k {direction}, id {direction}) FROM (
             SELECT {CARD_JSON} AS card, {key} AS k, s.id AS id
             FROM startups s JOIN funds fu ON fu.id = s.fund_id"
    ));
}

fn push_range(qb: &mut QueryBuilder<Sqlite>, column: &'static str, range: &Range, scale: i64) {
    qb.push(" AND ")
        .push(column)
        .push(" >= ")
        .push_bind(range.min * scale);
    if let Some(max) = range.max {
        qb.push(" AND ")
            .push(column)
            .push(" < ")
            .push_bind(max * scale);
    }
}

/// Adds the list filters to a query over `startups s`.
fn push_filters(qb: &mut QueryBuilder<Sqlite>, q: &ListQuery) {
    qb.push(" WHERE s.published = 1");
    if !q.fund.is_empty() {
        qb.push(" AND s.fund_id = (SELECT id FROM funds WHERE slug = ")
            .push_bind(q.fund.clone())
            .push(")");
    }
    if SECTORS.contains(&q.sector.as_str()) {
        qb.push(" AND s.sector = ").push_bind(q.sector.clone());
    }
    if !q.city.is_empty() {
        qb.push(" AND s.city = ").push_bind(q.city.clone());
    }
    if let Some(r) = find_range(&GOAL_RANGES, &q.goal) {
        push_range(qb, "s.funding_goal_kurus", r, 100);
    }
    if let Some(r) = find_range(&INVESTOR_RANGES, &q.investors) {
        push_range(qb, "s.investor_count", r, 1);
    }
    if let Some(r) = find_range(&COMPLETION_RANGES, &q.completion) {
        push_range(qb, "s.completion_pct", r, 1);
    }
}

/// What the catalogue shows around its cards: how many published startups pass the filters
/// (counted from the indexes alone: no join, no row read), and the funds and cities its
/// filters offer.
#[derive(Clone)]
pub struct Facets {
    pub total: i64,
    /// `(slug, name)` of every fund, by name.
    pub funds: Vec<(String, String)>,
    /// The cities of published startups, sorted.
    pub cities: Vec<String>,
}

/// One page of the catalogue with its facets, in one statement: the cards in the order
/// `q.sort` asks for (names in `locale`'s collation).
pub async fn catalogue_page(
    db: impl sqlx::SqliteExecutor<'_>,
    q: &ListQuery,
    locale: Locale,
    limit: i64,
    offset: i64,
) -> sqlx::Result<(Facets, Vec<CardRow>)> {
    let mut select = QueryBuilder::<Sqlite>::new("SELECT (SELECT COUNT(*) FROM startups s");
    push_filters(&mut select, q);
    select.push(
        "), (SELECT json_group_array(json_array(slug, name) ORDER BY name) FROM funds),
            (SELECT json_group_array(city ORDER BY city)
             FROM (SELECT DISTINCT city FROM startups WHERE published = 1)), (",
    );
    let (key, direction) = match (Sort::from_code(&q.sort), locale) {
        (Sort::Recent, _) => ("s.created_at", "DESC"),
        (Sort::AToZ, Locale::Tr) => ("s.sort_key_tr", "ASC"),
        (Sort::AToZ, Locale::En) => ("s.sort_key_en", "ASC"),
        (Sort::ZToA, Locale::Tr) => ("s.sort_key_tr", "DESC"),
        (Sort::ZToA, Locale::En) => ("s.sort_key_en", "DESC"),
    };
    push_cards_json(&mut select, key, direction);
    push_filters(&mut select, q);
    select
        .push(format_args!(
            " ORDER BY {key} {direction}, s.id {direction} LIMIT "
        ))
        .push_bind(limit)
        .push(" OFFSET ")
        .push_bind(offset)
        .push("))");
    let (total, funds, cities, cards): (i64, String, String, String) =
        select.build_query_as().fetch_one(db).await?;
    let decode = |e: serde_json::Error| sqlx::Error::Decode(Box::new(e));
    let facets = Facets {
        total,
        funds: serde_json::from_str(&funds).map_err(decode)?,
        cities: serde_json::from_str(&cities).map_err(decode)?,
    };
    Ok((facets, cards_from_json(&cards)?))
}

/// The card of the startup at `slug`: published ones, and drafts too when `drafts`.
pub async fn card(db: &SqlitePool, drafts: bool, slug: &str) -> sqlx::Result<Option<CardRow>> {
    sqlx::query_as!(
        CardRow,
        r#"SELECT s.id AS "id!", s.slug, s.name, s.sector, fu.name AS fund, s.city, s.funding_goal_kurus,
               s.raised_kurus, s.investor_count, s.funded AS "funded: bool",
               s.round_status AS "round_status: RoundStatus",
               s.period_kind AS "period_kind: PeriodKind", s.period_starts_on AS "period_starts_on: Date",
               s.period_ends_on AS "period_ends_on: Date", s.vip_until AS "vip_until: Date",
               s.logo, s.cover, s.closing_total_kurus, s.closing_investors,
               s.closed_at AS "closed_at: OffsetDateTime"
           FROM startups s JOIN funds fu ON fu.id = s.fund_id
           WHERE (s.published = 1 OR ?) AND s.slug = ?"#,
        drafts,
        slug
    )
    .fetch_optional(db)
    .await
}

/// The published startups `user` saved, most recently saved first.
pub async fn favorite_cards(db: &SqlitePool, user: i64) -> sqlx::Result<Vec<CardRow>> {
    let mut select = QueryBuilder::new("");
    push_cards_json(&mut select, "mine.created_at", "DESC");
    select
        .push(" JOIN favorites mine ON mine.startup_id = s.id AND mine.user_id = ")
        .push_bind(user)
        .push(" WHERE s.published = 1)");
    let json: String = select.build_query_scalar().fetch_one(db).await?;
    cards_from_json(&json)
}

#[cfg(test)]
mod tests {
    use sqlx::sqlite::SqlitePoolOptions;

    use super::*;

    /// Every kind of card (open, funded, VIP, closed with its time in either stored form, with
    /// and without images): read in a JSON list, it is the card read as a row.
    #[tokio::test]
    async fn a_card_in_a_json_list_is_the_card_read_as_a_row() {
        let db = SqlitePoolOptions::new()
            .max_connections(1)
            .connect("sqlite::memory:")
            .await
            .unwrap();
        sqlx::migrate!("./migrations").run(&db).await.unwrap();
        sqlx::raw_sql(
            "INSERT INTO funds (id, slug, name) VALUES (1, 'f', 'Fon \"A&B\"');
             INSERT INTO users (id, email, first_name, last_name) VALUES (7, 'a@example.com', 'A', 'B');
             WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5)
             INSERT INTO startups (slug, name, sort_key_tr, sort_key_en, sector, fund_id, city,
                 description_tr, description_en, stage, funding_goal_kurus, raised_kurus,
                 completion_pct, investor_count, funded, period_kind, period_starts_on,
                 period_ends_on, published, created_at)
             SELECT 's-' || i, 'Girişim \"' || i || '\" ığüşöç', 'g' || i, 'g' || i, 'fintech', 1,
                 'İzmir', '', '', 'seed', 100000000 + i, i * 1000, 1, i, i = 2,
                 CASE WHEN i % 2 = 0 THEN 'pre_investment' ELSE 'investment' END,
                 '2026-01-0' || i, '2026-02-0' || i, 0, '2026-01-01T00:00:0' || i || 'Z'
             FROM n;
             INSERT INTO campaign_versions (startup_id, number, content, submitted_at, status, decided_at)
             SELECT id, 1, '{}', created_at, 'approved', created_at FROM startups;
             UPDATE startups SET published = 1, approved_version_id = (
                 SELECT v.id FROM campaign_versions v WHERE v.startup_id = startups.id);
             UPDATE startups SET vip_until = '2026-01-20', logo = '0123456789abcdef0123456789abcdef',
                 cover = 'fedcba9876543210fedcba9876543210'
             WHERE slug = 's-3';
             UPDATE startups SET round_status = 'failed', closing_total_kurus = 4500,
                 closing_investors = 2, closed_at = '2026-02-10 09:30:00.123456789+00:00'
             WHERE slug = 's-4';
             UPDATE startups SET round_status = 'failed', closing_total_kurus = 0,
                 closing_investors = 0, closed_at = '2026-02-11T23:59:59Z' WHERE slug = 's-5';
             INSERT INTO favorites (user_id, startup_id) SELECT 7, id FROM startups;",
        )
        .execute(&db)
        .await
        .unwrap();
        let (facets, listed) = catalogue_page(&db, &ListQuery::default(), Locale::Tr, 10, 0)
            .await
            .unwrap();
        assert_eq!(facets.total, 5);
        let saved = favorite_cards(&db, 7).await.unwrap();
        // The lists keep their order: the newest first; saved at the same second, the last
        // saved first; a page of the names from Z to A.
        let slugs = |cards: &[CardRow]| cards.iter().map(|c| c.slug.clone()).collect::<Vec<_>>();
        assert_eq!(slugs(&listed), ["s-5", "s-4", "s-3", "s-2", "s-1"]);
        assert_eq!(slugs(&saved), ["s-5", "s-4", "s-3", "s-2", "s-1"]);
        let z_a = ListQuery {
            sort: "z-a".into(),
            ..ListQuery::default()
        };
        let (_, backwards) = catalogue_page(&db, &z_a, Locale::En, 2, 1).await.unwrap();
        assert_eq!(slugs(&backwards), ["s-4", "s-3"]);
        for list in [listed, saved] {
            for json in list {
                let row = card(&db, false, &json.slug).await.unwrap().unwrap();
                let closed_ms =
                    |c: &CardRow| c.closed_at.map(|t| t.unix_timestamp_nanos() / 1_000_000);
                assert_eq!(closed_ms(&json), closed_ms(&row), "{}", json.slug);
                assert_eq!(
                    CardRow {
                        closed_at: None,
                        ..json
                    },
                    CardRow {
                        closed_at: None,
                        ..row
                    }
                );
            }
        }
    }
}
