//! Which routes show the site header and footer (spec section 2, "Layout rules").

/// The page chrome a route gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chrome {
    pub header: bool,
    pub footer: bool,
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
    "/boardingFlow/1",
    "/boardingFlow/2",
    "/boardingFlow/3",
    "/boardingFlow/4",
    "/boardingFlow/5",
    "/boardingFlow/success",
    "/projectFlow/1",
    "/projectFlow/2",
    "/projectFlow/3",
    "/projectFlow/4",
    "/mkk",
    "/techinvestor",
    "/paymentSuccess",
    "/paymentFail",
];

const NO_FOOTER: &[&str] = &[
    "/login",
    "/register",
    "/signin",
    "/signin/2fa",
    "/signin/2fa/setup",
    "/signup",
    "/boardingFlow/1",
    "/boardingFlow/2",
    "/boardingFlow/3",
    "/boardingFlow/success",
    "/verificationtoken",
    "/forgot-password",
    "/paymentSuccess",
    "/paymentFail",
];

fn under(path: &str, root: &str) -> bool {
    path == root
        || path
            .strip_prefix(root)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// The chrome of a request path (without query string). Payment results are shown bare
/// (spec section 4); every dashboard path has neither header nor footer, and every
/// vc-dashboard path has no header.
pub fn chrome_for(path: &str) -> Chrome {
    let path = if path.len() > 1 {
        path.trim_end_matches('/')
    } else {
        path
    };
    let dashboard = under(path, "/dashboard");
    Chrome {
        header: !(dashboard || under(path, "/vc-dashboard") || NO_HEADER.contains(&path)),
        footer: !(dashboard || NO_FOOTER.contains(&path)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chrome(header: bool, footer: bool) -> Chrome {
        Chrome { header, footer }
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
            ("/investmentFlow", chrome(true, true)),
            ("/invFlow", chrome(true, true)),
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
            ("/boardingFlow/1", chrome(false, false)),
            ("/boardingFlow/2", chrome(false, false)),
            ("/boardingFlow/3", chrome(false, false)),
            ("/boardingFlow/4", chrome(false, true)),
            ("/boardingFlow/5", chrome(false, true)),
            ("/boardingFlow/success", chrome(false, false)),
            ("/projectFlow/1", chrome(false, true)),
            ("/projectFlow/4", chrome(false, true)),
            ("/mkk", chrome(false, true)),
            ("/techinvestor", chrome(false, true)),
            ("/paymentSuccess", chrome(false, false)),
            ("/paymentFail", chrome(false, false)),
            ("/dashboard", chrome(false, false)),
            ("/dashboard/users", chrome(false, false)),
            ("/dashboard/takasbank", chrome(false, false)),
            ("/vc-dashboard", chrome(false, true)),
            ("/vc-dashboard/reports", chrome(false, true)),
            ("/dashboardx", chrome(true, true)),
            ("/techinvestor/", chrome(false, true)),
        ];
        for (path, expected) in table {
            assert_eq!(chrome_for(path), *expected, "{path}");
        }
    }
}
