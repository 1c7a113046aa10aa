//! Demo funds and startups: realistic, bilingual, spread over every sector, with investment
//! and pre-investment periods around the day the demo is created.

use std::path::Path;

use ortak_app::domain::collation::sort_key;
use ortak_app::domain::startup_form::slugify;
use ortak_app::domain::startups::SECTIONS;
use ortak_app::domain::time_fmt::istanbul_date;
use ortak_app::i18n::Locale;
use sqlx::{SqliteConnection, SqlitePool};
use time::macros::datetime;
use time::{Date, Duration, Month, OffsetDateTime};

use super::files;
use super::queries::{self, NewReport, NewStartup};
use super::rounds::{self, Scenario};
use crate::campaigns::Platform;
use crate::db::clock::Clock;
use crate::web::files::random_name;

const FUNDS: [(&str, &str, &str, &str); 4] = [
    (
        "anadolu-girisim",
        "Anadolu Girişim Sermayesi Yatırım Fonu",
        "Anadolu'daki üretim ve tarım teknolojilerine odaklanan girişim sermayesi fonu.",
        "A venture capital fund focused on production and agricultural technologies across Anatolia.",
    ),
    (
        "bogazici-ventures",
        "Boğaziçi Ventures GSYF",
        "Erken aşama yazılım ve finansal teknoloji girişimlerine yatırım yapan fon.",
        "A fund investing in early-stage software and fintech startups.",
    ),
    (
        "ege-teknoloji",
        "Ege Teknoloji Fonu",
        "Sağlık, enerji ve mobilite alanlarında derin teknoloji girişimlerini destekler.",
        "Backs deep-technology startups in healthcare, energy and mobility.",
    ),
    (
        "marmara-capital",
        "Marmara Capital GSYF",
        "Siber güvenlik ve iletişim teknolojilerinde büyüme aşamasına yakın girişimler.",
        "Startups close to growth stage in cybersecurity and communications.",
    ),
];

/// name, sector, fund index, city, goal (lira), raised (lira), investors, stage, period kind,
/// days since start, days until end, the round's story, one-line pitch (tr, en). The raised
/// amount and investor count are made real: demo investors' requests reach escrow through the
/// ledger (see `demo::rounds`).
type Row = (
    &'static str,
    &'static str,
    usize,
    &'static str,
    i64,
    i64,
    i64,
    &'static str,
    &'static str,
    i64,
    i64,
    Scenario,
    &'static str,
    &'static str,
);

const STARTUPS: [Row; 26] = [
    (
        "Cemre Enerji",
        "energy",
        2,
        "İzmir",
        3_000_000,
        1_250_000,
        18,
        "seed",
        "investment",
        12,
        40,
        Scenario::Open,
        "Çatı tipi güneş santralleri için yapay zekâ destekli verim yönetimi.",
        "AI-driven yield management for rooftop solar plants.",
    ),
    (
        "Çiçek Tarım",
        "agriculture",
        0,
        "Antalya",
        2_000_000,
        1_640_000,
        31,
        "seed",
        "investment",
        30,
        18,
        Scenario::Open,
        "Seralar için sensör tabanlı sulama ve gübreleme otomasyonu.",
        "Sensor-based irrigation and fertigation automation for greenhouses.",
    ),
    (
        "Irmak Su Teknolojileri",
        "agriculture",
        0,
        "Konya",
        4_500_000,
        900_000,
        9,
        "pre-series-a",
        "investment",
        5,
        54,
        Scenario::Open,
        "Tarımsal sulamada su kaybını ölçen akıllı sayaçlar.",
        "Smart meters that measure water loss in agricultural irrigation.",
    ),
    (
        "İnci Sağlık",
        "healthcare",
        2,
        "İstanbul",
        5_000_000,
        2_750_000,
        44,
        "series-a",
        "investment",
        20,
        25,
        Scenario::Open,
        "Kronik hastalar için uzaktan izleme ve hemşire destek platformu.",
        "Remote monitoring and nurse support platform for chronic patients.",
    ),
    (
        "Zeytin Finans",
        "fintech",
        1,
        "İstanbul",
        1_500_000,
        1_500_000,
        62,
        "seed",
        "investment",
        70,
        -11,
        Scenario::Funded,
        "Esnaf ve KOBİ'ler için nakit akışı öngörüsü sunan ön muhasebe uygulaması.",
        "Bookkeeping app with cash-flow forecasts for small businesses.",
    ),
    (
        "Kalkan Siber",
        "cybersecurity",
        3,
        "Ankara",
        6_000_000,
        1_200_000,
        12,
        "series-a",
        "investment",
        8,
        50,
        Scenario::Open,
        "KOBİ'ler için yönetilen tehdit tespiti ve müdahale hizmeti.",
        "Managed threat detection and response for SMEs.",
    ),
    (
        "Rota Mobilite",
        "mobility",
        2,
        "Bursa",
        2_500_000,
        600_000,
        7,
        "seed",
        "pre_investment",
        3,
        27,
        Scenario::Open,
        "Filolar için elektrikli araç şarj planlama yazılımı.",
        "Charging-schedule software for electric vehicle fleets.",
    ),
    (
        "Dalga İletişim",
        "communications",
        3,
        "İstanbul",
        3_500_000,
        0,
        0,
        "seed",
        "pre_investment",
        1,
        44,
        Scenario::Open,
        "Fabrikalar için özel 5G ağ kurulum ve yönetim platformu.",
        "Private 5G network deployment and management for factories.",
    ),
    (
        "Pusula Yazılım",
        "consumer-software",
        1,
        "İstanbul",
        1_200_000,
        480_000,
        15,
        "pre-seed",
        "investment",
        15,
        30,
        Scenario::Open,
        "Aileler için ortak bütçe ve harcama planlama uygulaması.",
        "A shared budgeting and spending planner for families.",
    ),
    (
        "Ödeme Köprüsü",
        "fintech",
        1,
        "İstanbul",
        4_000_000,
        3_400_000,
        57,
        "series-a",
        "investment",
        40,
        2,
        Scenario::Open,
        "Pazar yerleri için alt üye işyeri ödeme altyapısı.",
        "Sub-merchant payment infrastructure for marketplaces.",
    ),
    (
        "Şifa Genomik",
        "healthcare",
        2,
        "İzmir",
        6_500_000,
        1_950_000,
        21,
        "series-a",
        "investment",
        10,
        48,
        Scenario::Open,
        "Nadir hastalıklar için genetik tanı analiz yazılımı.",
        "Genetic diagnosis analysis software for rare diseases.",
    ),
    (
        "Toprak Analitik",
        "agriculture",
        0,
        "Eskişehir",
        900_000,
        900_000,
        40,
        "pre-seed",
        "investment",
        90,
        -31,
        Scenario::Funded,
        "Uydu verisiyle tarla bazında verim tahmini.",
        "Field-level yield forecasts from satellite data.",
    ),
    (
        "Yıldız Batarya",
        "energy",
        2,
        "Kocaeli",
        5_500_000,
        825_000,
        11,
        "seed",
        "pre_investment",
        6,
        34,
        Scenario::Open,
        "Ev tipi enerji depolama sistemleri için batarya yönetimi.",
        "Battery management for home energy storage systems.",
    ),
    (
        "Güvenli Kimlik",
        "cybersecurity",
        3,
        "Ankara",
        2_800_000,
        1_540_000,
        26,
        "seed",
        "investment",
        18,
        22,
        Scenario::Open,
        "Bankalar için yüz ve belge doğrulamalı uzaktan müşteri edinimi.",
        "Remote customer onboarding with face and document checks for banks.",
    ),
    (
        "Ağ Kurdu",
        "communications",
        3,
        "İstanbul",
        1_800_000,
        360_000,
        6,
        "pre-seed",
        "investment",
        4,
        55,
        Scenario::Open,
        "Apartmanlar için paylaşımlı fiber internet yönetimi.",
        "Shared fibre internet management for apartment buildings.",
    ),
    (
        "Hasat Pazarı",
        "agriculture",
        0,
        "Mersin",
        2_200_000,
        1_100_000,
        23,
        "seed",
        "investment",
        22,
        20,
        Scenario::Open,
        "Üreticiyi doğrudan restoranlarla buluşturan B2B pazar yeri.",
        "A B2B marketplace connecting growers directly with restaurants.",
    ),
    (
        "Medikal Lojistik",
        "healthcare",
        2,
        "Ankara",
        3_200_000,
        0,
        0,
        "seed",
        "pre_investment",
        2,
        57,
        Scenario::Open,
        "Hastaneler arası numune ve ilaç taşımada soğuk zincir takibi.",
        "Cold-chain tracking for samples and drugs moving between hospitals.",
    ),
    (
        "Otopark Akıl",
        "mobility",
        2,
        "İstanbul",
        1_000_000,
        1_000_000,
        35,
        "pre-seed",
        "investment",
        80,
        -25,
        Scenario::Funded,
        "Kamera tabanlı otopark doluluk ve ödeme sistemi.",
        "Camera-based parking occupancy and payment system.",
    ),
    (
        "Ekin Kredi",
        "fintech",
        1,
        "Konya",
        3_800_000,
        950_000,
        14,
        "seed",
        "investment",
        9,
        50,
        Scenario::Open,
        "Çiftçiler için ürün teminatlı mikro kredi skorlaması.",
        "Crop-backed micro-credit scoring for farmers.",
    ),
    (
        "Oyun Atölyesi",
        "consumer-software",
        1,
        "İstanbul",
        1_600_000,
        1_120_000,
        29,
        "seed",
        "investment",
        25,
        15,
        Scenario::Open,
        "Çocuklar için kodlama öğreten mobil oyun serisi.",
        "A series of mobile games that teach children to code.",
    ),
    (
        "Veri Kalesi",
        "cybersecurity",
        3,
        "İstanbul",
        4_200_000,
        2_100_000,
        33,
        "series-a",
        "investment",
        28,
        17,
        Scenario::Open,
        "KVKK uyumu için kişisel veri keşif ve maskeleme aracı.",
        "Personal data discovery and masking for KVKK compliance.",
    ),
    (
        "Rüzgar Gülü",
        "energy",
        2,
        "Çanakkale",
        6_000_000,
        6_000_000,
        88,
        "series-b",
        "investment",
        60,
        -5,
        Scenario::Funded,
        "Küçük rüzgar türbinleri için kestirimci bakım.",
        "Predictive maintenance for small wind turbines.",
    ),
    (
        "Uydu Bağ",
        "communications",
        3,
        "Ankara",
        5_000_000,
        750_000,
        8,
        "seed",
        "investment",
        7,
        52,
        Scenario::Open,
        "Kırsal bölgeler için düşük maliyetli uydu internet terminalleri.",
        "Low-cost satellite internet terminals for rural areas.",
    ),
    (
        "Bisiklet Ağı",
        "mobility",
        2,
        "Eskişehir",
        800_000,
        200_000,
        5,
        "pre-seed",
        "pre_investment",
        10,
        20,
        Scenario::Open,
        "Üniversite kampüsleri için elektrikli bisiklet paylaşımı.",
        "Electric bike sharing for university campuses.",
    ),
    (
        "Aile Hekimim",
        "healthcare",
        2,
        "Bursa",
        2_400_000,
        1_680_000,
        38,
        "seed",
        "investment",
        33,
        9,
        Scenario::Waitlist,
        "Aile hekimlerine randevu ve takip asistanı.",
        "Appointment and follow-up assistant for family doctors.",
    ),
    (
        "Ünlü Tarifler",
        "consumer-software",
        1,
        "İzmir",
        700_000,
        140_000,
        4,
        "pre-seed",
        "investment",
        70,
        -12,
        Scenario::Failed,
        "Yöresel tarifleri videolu derslere dönüştüren platform.",
        "Turns regional recipes into video cooking classes.",
    ),
];

const FOUNDERS: [(&str, &str); 12] = [
    ("Ayşe Kaya", "CEO"),
    ("Mehmet Demir", "CTO"),
    ("Zeynep Çelik", "COO"),
    ("Emre Şahin", "CTO"),
    ("Elif Yıldız", "CEO"),
    ("Burak Öztürk", "CFO"),
    ("Selin Aydın", "CEO"),
    ("Can Arslan", "CTO"),
    ("Deniz Koç", "CEO"),
    ("Gökhan Polat", "CPO"),
    ("Merve Erdem", "CEO"),
    ("Onur Kılıç", "CTO"),
];

fn sections(
    name: &str,
    pitch_tr: &str,
    pitch_en: &str,
    city: &str,
    goal: i64,
) -> Vec<(&'static str, String, String)> {
    let goal_tr = ortak_app::domain::money::Money::from_lira(goal).format(Locale::Tr);
    let goal_en = ortak_app::domain::money::Money::from_lira(goal).format(Locale::En);
    let texts: [(String, String); 12] = [
        (format!("{name}, {city} merkezli bir teknoloji girişimidir. {pitch_tr} Bu turda {goal_tr} yatırım arıyor."), format!("{name} is a technology startup based in {city}. {pitch_en} It seeks {goal_en} in this round.")),
        (format!("- **Konum:** {city}\n- **Hedef:** {goal_tr}\n- **Ürün:** {pitch_tr}"), format!("- **Location:** {city}\n- **Goal:** {goal_en}\n- **Product:** {pitch_en}")),
        (format!("Yatırım, fonun yatırım komitesinin onayladığı koşullarla ve fonla birlikte yapılır. Toplam tur büyüklüğü {goal_tr}'dir."), format!("The investment is made beside the fund on the terms its investment committee approved. The round totals {goal_en}.")),
        ("Hedef müşteriler bugün bu işi elle, dağınık araçlarla ve yüksek maliyetle yürütüyor; hatalar gelir kaybına yol açıyor.".into(), "Target customers do this work by hand today, with scattered tools and at high cost; mistakes lose them revenue.".into()),
        (format!("{pitch_tr} Ürün bulut tabanlıdır ve mevcut sistemlerle entegre çalışır."), format!("{pitch_en} The product is cloud-based and integrates with existing systems.")),
        ("Türkiye pazarı hızla büyüyor; girişim önce yurt içinde, ardından bölge ülkelerinde büyümeyi hedefliyor.".into(), "The Turkish market is growing fast; the startup aims to grow at home first, then in the region.".into()),
        ("Yerli rakipler dar bir ürün sunarken yabancı çözümler yerel mevzuata ve fiyatlara uyum sağlamakta zorlanıyor.".into(), "Local competitors offer a narrow product, while foreign solutions struggle with local regulation and pricing.".into()),
        ("Tüm yatırımcılar aynı pay sahipliği sözleşmesi koşullarına tabidir; fonla aynı fiyat ve haklarla yatırım yapılır. Paylar MKK'da kayda alınır.".into(), "All investors share the same shareholder agreement terms and invest at the fund's price and rights. Shares are registered with MKK.".into()),
        ("Kurucu ekip sektörde ortalama on yıllık deneyime sahiptir ve daha önce ölçeklenen ürünler geliştirmiştir.".into(), "The founding team has about ten years of industry experience on average and has built products that scaled before.".into()),
        ("Son altı ayda aylık tekrarlayan gelir düzenli olarak arttı; pilot müşterilerin çoğu ücretli sözleşmeye geçti.".into(), "Monthly recurring revenue grew steadily over the last six months; most pilot customers moved to paid contracts.".into()),
        ("Erken aşama yatırım yüksek risk taşır: girişim başarısız olabilir, paylar likit değildir ve sulanma yaşanabilir. Genel risk bildirimini okuyun.".into(), "Early-stage investment is high risk: the startup may fail, shares are illiquid and dilution may occur. Read the general risk notice.".into()),
        ("Bu sayfadaki bilgiler girişim ve fon tarafından sağlanmıştır; yatırım tavsiyesi değildir.".into(), "The information on this page was provided by the startup and the fund; it is not investment advice.".into()),
    ];
    SECTIONS
        .iter()
        .zip(texts)
        .map(|(s, (tr, en))| (*s, tr, en))
        .collect()
}

/// Inserts the demo funds and startups once, with their slides and reports under `data_dir`,
/// and two academy events.
/// `row` with its period cut to the campaign length the rules allow: its end kept where it can
/// be (the scenarios count days to it), its start moved later.
fn within(mut row: Row, max_days: i64) -> Row {
    row.10 = row.10.min(max_days - 1);
    row.9 = row.9.min(max_days - 1 - row.10);
    row
}

pub async fn seed(db: &SqlitePool, platform: &Platform<'_>) -> anyhow::Result<()> {
    let data_dir = platform.data_dir;
    if queries::has_startups(db).await? {
        return Ok(());
    }
    let now = Clock::system().now();
    let mut tx = crate::db::write(db).await?;
    let mut fund_ids = Vec::new();
    for (slug, name, tr, en) in FUNDS {
        fund_ids.push(queries::insert_fund(&mut tx, slug, name, tr, en).await?);
    }
    let investors = rounds::insert_investors(&mut tx, data_dir, now).await?;
    super::campaigns::insert_committee(&mut tx, now).await?;
    let max_days = queries::campaign_max_days(&mut tx).await?;
    for (i, row) in STARTUPS.iter().enumerate() {
        let row = &within(*row, max_days);
        let id = insert_startup(&mut tx, i, row, &fund_ids, now).await?;
        let today = istanbul_date(now);
        let demo = super::campaigns::DemoCampaign {
            index: i,
            description: (row.12, row.13),
            sections: sections(row.0, row.12, row.13, row.3, row.4),
            goal_lira: row.4,
            period: (
                today - Duration::days(row.9),
                today + Duration::days(row.10),
            ),
        };
        let campaign = super::campaigns::campaign(&demo);
        super::campaigns::approve(&mut tx, platform, (id, i), &campaign, now).await?;
        if let Some((logo, cover)) = super::pictures::write(data_dir, i, &slugify(row.0))? {
            crate::startups::set_image(&mut tx, id, false, &logo).await?;
            crate::startups::set_image(&mut tx, id, true, &cover).await?;
        }
        let (goal, raised, count, since, until, scenario) =
            (row.4, row.5, row.6, row.9, row.10, row.11);
        let round = rounds::DemoRound {
            startup: id,
            index: i,
            kind: row.8,
            goal_lira: goal,
            raised_lira: raised,
            investors: count,
            starts: now - Duration::days(since),
            ends_on: istanbul_date(now) + Duration::days(until),
            scenario,
        };
        rounds::seed(&mut tx, &round, &investors, now).await?;
        insert_story(&mut tx, data_dir, i, id).await?;
        insert_slides(&mut tx, data_dir, id, row).await?;
        if i < 10 {
            insert_reports(&mut tx, data_dir, i, id, row.0).await?;
        }
    }
    insert_academy_events(&mut tx, now).await?;
    tx.commit().await?;
    Ok(())
}

/// The `i`th startup's catalogue row, its period around today and its creation spread over
/// the past days (newest first in "last added").
async fn insert_startup(
    conn: &mut SqliteConnection,
    i: usize,
    row: &Row,
    fund_ids: &[i64],
    now: OffsetDateTime,
) -> anyhow::Result<i64> {
    let &(
        name,
        sector,
        fund,
        city,
        goal,
        _raised,
        _investors,
        stage,
        period,
        since,
        until,
        _scenario,
        tr,
        en,
    ) = row;
    let today = istanbul_date(now);
    let slug = slugify(name);
    let startup = NewStartup {
        slug: &slug,
        name,
        sort_key_tr: sort_key(name, Locale::Tr),
        sort_key_en: sort_key(name, Locale::En),
        sector,
        fund_id: fund_ids[fund],
        city,
        description_tr: tr,
        description_en: en,
        website: format!("https://{slug}.example.com.tr"),
        instagram: format!("https://www.instagram.com/{}", slug.replace('-', "")),
        team_size: 4 + (i as i64 * 3) % 20,
        established_on: day(2019 + (i % 6) as i32, 1 + (i % 9) as u8, 15)?,
        stage,
        funding_goal_kurus: goal * 100,
        period_kind: period,
        period_starts_on: today - Duration::days(since),
        period_ends_on: today + Duration::days(until),
        valuation_usd: goal / 10 * 4,
        amount_sought_usd: goal / 40,
        created_at: now - Duration::hours(6 * (STARTUPS.len() - i) as i64),
    };
    Ok(queries::insert_startup(conn, &startup).await?)
}

/// `year-month-day`, which the demo's tables always hold valid.
fn day(year: i32, month: u8, day: u8) -> anyhow::Result<Date> {
    Ok(Date::from_calendar_date(
        year,
        Month::try_from(month)?,
        day,
    )?)
}

/// The analysis sections, some history (an accelerator, an earlier round) and two founders.
async fn insert_story(
    conn: &mut SqliteConnection,
    data_dir: &Path,
    i: usize,
    id: i64,
) -> anyhow::Result<()> {
    // The analysis sections came with the approved campaign.
    if i.is_multiple_of(3) {
        let program = [
            "İTÜ Çekirdek",
            "Endeavor Scale-Up",
            "Startupbootcamp",
            "Techstars",
        ][i % 4];
        let country = if i % 4 < 2 { "Türkiye" } else { "Hollanda" };
        let attended = day(2021 + (i % 4) as i32, 3, 1)?;
        queries::insert_accelerator(conn, id, attended, program, country).await?;
    }
    if i.is_multiple_of(2) {
        let investors = ["Melek yatırımcılar", "Kurucular ve aile", "Tohum fonu"][i % 3];
        let raised = day(2022 + (i % 3) as i32, 9, 15)?;
        let amount = 50_000 + (i as i64) * 15_000;
        queries::insert_prior_round(conn, id, raised, investors, amount).await?;
    }
    for k in 0..2 {
        let (founder, title) = FOUNDERS[(i * 2 + k) % FOUNDERS.len()];
        queries::insert_founder(conn, id, k as i64, founder, title).await?;
        if let Some(photo) = super::pictures::write_portrait(data_dir, i, k, founder)? {
            crate::startups::set_founder_photo(conn, id, founder, &photo).await?;
        }
    }
    Ok(())
}

/// Three presentation slides, written under `data_dir/presentations`.
async fn insert_slides(
    conn: &mut SqliteConnection,
    data_dir: &Path,
    id: i64,
    row: &Row,
) -> anyhow::Result<()> {
    let (name, city, pitch) = (row.0, row.3, row.12);
    let slides_dir = data_dir.join("presentations");
    std::fs::create_dir_all(&slides_dir)?;
    let slides: [(&str, Vec<&str>); 3] = [
        (name, vec![pitch, city]),
        (
            "Pazar ve fırsat",
            vec![
                "Hızla büyüyen bir pazar",
                "Dijitalleşme ihtiyacı",
                "Düzenleyici destek",
            ],
        ),
        (
            "Yatırım",
            vec![
                "Fonla aynı koşullar",
                "Paylar MKK'da kayıtlı",
                "Çeyrek raporlar",
            ],
        ),
    ];
    for (n, (title, lines)) in slides.iter().enumerate() {
        let file = random_name("svg");
        std::fs::write(slides_dir.join(&file), files::slide(title, lines, n + 1))?;
        queries::insert_slide(conn, id, n as i64 + 1, &file).await?;
    }
    Ok(())
}

/// Two quarterly reports, their PDFs written under `data_dir/reports`.
async fn insert_reports(
    conn: &mut SqliteConnection,
    data_dir: &Path,
    i: usize,
    id: i64,
    name: &str,
) -> anyhow::Result<()> {
    let reports_dir = data_dir.join("reports");
    std::fs::create_dir_all(&reports_dir)?;
    let quarters = [
        ("2026-Q2", datetime!(2026-07-15 09:00 UTC)),
        ("2026-Q3", datetime!(2026-10-15 09:00 UTC)),
    ];
    for (q, (quarter, published_at)) in quarters.into_iter().enumerate() {
        let file_name = random_name("pdf");
        let growth = 8 + (i + q) * 3;
        let pdf = files::report_pdf(
            &format!("{name} {quarter}"),
            &[
                &format!("Quarterly report {quarter}"),
                &format!("Revenue growth: {growth}%"),
                "Runway: 18 months",
            ],
        );
        std::fs::write(reports_dir.join(&file_name), pdf)?;
        let report = NewReport {
            startup_id: id,
            quarter,
            title_tr: format!("{name} {quarter} çeyrek raporu"),
            title_en: format!("{name} {quarter} quarterly report"),
            summary_tr: format!(
                "Gelir önceki çeyreğe göre %{growth} arttı; nakit ömrü 18 ay. Ekip iki yeni müşteriyle pilot başlattı."
            ),
            summary_en: format!(
                "Revenue grew {growth}% on the previous quarter; 18 months of runway. The team started pilots with two new customers."
            ),
            file_name,
            published_at,
        };
        queries::insert_report(conn, &report).await?;
    }
    Ok(())
}

/// Two academy events in the coming weeks.
async fn insert_academy_events(
    conn: &mut SqliteConnection,
    now: OffsetDateTime,
) -> anyhow::Result<()> {
    for (days, tr, en) in [
        (
            21,
            "Erken aşama yatırıma giriş (İstanbul)",
            "Introduction to early-stage investing (Istanbul)",
        ),
        (
            49,
            "Girişim değerlemesi atölyesi (çevrim içi)",
            "Startup valuation workshop (online)",
        ),
    ] {
        queries::insert_academy_event(conn, tr, en, now + Duration::days(days)).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn slugs_are_ascii() {
        assert_eq!(super::slugify("İnci Sağlık"), "inci-saglik");
        assert_eq!(super::slugify("Çiçek Tarım"), "cicek-tarim");
        assert_eq!(super::slugify("Ödeme Köprüsü"), "odeme-koprusu");
    }
}
