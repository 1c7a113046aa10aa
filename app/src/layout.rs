//! Which routes show the site header and which footer (spec section 2, "Layout rules", as
//! issue 28 changed them: flows keep the header, so a member can always sign out or leave, and
//! get the slim footer instead of the marketing one).

/// The page chrome a route gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chrome {
    pub header: bool,
    pub footer: Footer,
}

/// Which footer a page ends with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Footer {
    None,
    /// Policies and the small print only: inside a flow, where the call to invest and the
    /// newsletter would pull the member away from the step they are on.
    Slim,
    Full,
}

const NO_HEADER: &[&str] = &[
    "/signup",
    "/signin",
    "/signin/2fa",
    "/signin/2fa/setup",
    "/login",
    "/register",
    "/verification",
    "/verificationtoken",
    "/forgotpassword",
    "/forgot-password",
    "/resetpassword",
    "/techinvestor",
];

const NO_FOOTER: &[&str] = &[
    "/login",
    "/register",
    "/signin",
    "/signin/2fa",
    "/signin/2fa/setup",
    "/signup",
    "/verificationtoken",
    "/forgot-password",
];

/// The flows, each a root path with everything under it: a member on their way through one
/// gets the slim footer.
const FLOWS: &[&str] = &[
    "/boardingFlow",
    "/mkk",
    "/investmentFlow",
    "/invFlow",
    "/sandbox/3ds",
    "/paymentSuccess",
    "/paymentFail",
    "/projectFlow",
    "/vc-dashboard",
];

fn under(path: &str, root: &str) -> bool {
    path == root
        || path
            .strip_prefix(root)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// The chrome of a request path (without query string). Every staff dashboard path has
/// neither header nor footer (it has its own bar); flows have the header and the slim footer.
pub fn chrome_for(path: &str) -> Chrome {
    let path = if path.len() > 1 {
        path.trim_end_matches('/')
    } else {
        path
    };
    let dashboard = under(path, "/dashboard");
    let footer = if dashboard || NO_FOOTER.contains(&path) {
        Footer::None
    } else if FLOWS.iter().any(|root| under(path, root)) {
        Footer::Slim
    } else {
        Footer::Full
    };
    Chrome {
        header: !(dashboard || NO_HEADER.contains(&path)),
        footer,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chrome(header: bool, footer: bool) -> Chrome {
        let footer = if footer { Footer::Full } else { Footer::None };
        Chrome { header, footer }
    }

    fn flow() -> Chrome {
        Chrome {
            header: true,
            footer: Footer::Slim,
        }
    }

    #[test]
    fn follows_the_spec_table_route_by_route() {
        let table: &[(&str, Chrome)] = &[
            ("/", chrome(true, true)),
            ("/startups", chrome(true, true)),
            ("/favorites", chrome(true, true)),
            ("/userInvestments", chrome(true, true)),
            ("/pendingInvestments", chrome(true, true)),
            ("/profile", chrome(true, true)),
            ("/gsyf", chrome(true, true)),
            ("/contactUs", chrome(true, true)),
            ("/reports", chrome(true, true)),
            ("/overview", chrome(true, true)),
            ("/faq", chrome(true, true)),
            ("/blog", chrome(true, true)),
            ("/politikalar/cerez-politikasi", chrome(true, true)),
            ("/signup", chrome(false, false)),
            ("/register", chrome(false, false)),
            ("/signin", chrome(false, false)),
            ("/login", chrome(false, false)),
            ("/verification", chrome(false, true)),
            ("/verificationtoken", chrome(false, false)),
            ("/forgotpassword", chrome(false, true)),
            ("/forgot-password", chrome(false, false)),
            ("/resetpassword", chrome(false, true)),
            ("/boardingFlow/1", flow()),
            ("/boardingFlow/2", flow()),
            ("/boardingFlow/3", flow()),
            ("/boardingFlow/4", flow()),
            ("/boardingFlow/5", flow()),
            ("/boardingFlow/success", flow()),
            ("/projectFlow/1", flow()),
            ("/projectFlow/4", flow()),
            ("/projectFlow/done", flow()),
            ("/mkk", flow()),
            ("/investmentFlow", flow()),
            ("/investmentFlow/created", flow()),
            ("/invFlow", flow()),
            ("/invFlow/3ds/7", flow()),
            ("/sandbox/3ds/7", flow()),
            ("/techinvestor", chrome(false, true)),
            ("/paymentSuccess", flow()),
            ("/paymentFail", flow()),
            ("/dashboard", chrome(false, false)),
            ("/dashboard/users", chrome(false, false)),
            ("/dashboard/takasbank", chrome(false, false)),
            ("/vc-dashboard", flow()),
            ("/vc-dashboard/startups/3", flow()),
            ("/dashboardx", chrome(true, true)),
            ("/mkkx", chrome(true, true)),
            ("/techinvestor/", chrome(false, true)),
        ];
        for (path, expected) in table {
            assert_eq!(chrome_for(path), *expected, "{path}");
        }
    }
}
