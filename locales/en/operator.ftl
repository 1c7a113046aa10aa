operator-permission = Permitted by the Capital Markets Board of Türkiye (SPK), by its decision { $number } of { $date }, to operate as an equity crowdfunding platform under Communiqué III‑35/A.2.
operator-spk-list = SPK's list of crowdfunding platforms
operator-legal-name = Trade name
operator-address = Address
operator-mersis = MERSİS number
operator-trade-registry = Trade registry
operator-kep = KEP address
operator-phone = Phone
operator-email = E-mail
operator-controller = Who the data controller is
operator-controller-contact = You can send requests about your personal data to our KEP address or to:
about-link = About and contact
about-title = About us and contact
about-description = The company that runs Ortak, its SPK permission and how to reach us.
about-lead = Ortak is an equity crowdfunding platform run by { $name }: it lets you invest in startups that venture capital funds have approved, on the same terms as the funds.
about-identity = Company details
about-regulation = Regulation
about-regulation-text = Campaigns run for at most 60 days and each one is approved by our investment committee. Investors' money is held in the escrow account at Takasbank throughout a campaign and refunded in full if the campaign fails. Investing on this platform is high risk.
about-contact = Contact
about-write = Write to us
round-allocated-on = The round closed on { $date }; shares were allocated.
round-refunded-on = The round closed on { $date }; the amounts in escrow were refunded.
round-at-close = At the close
round-at-close-allocated = { $amount } allocated to { $investors } investors
round-at-close-refunded = { $amount } from { $investors } investors refunded from escrow
startup-failed-of-goal = of the { $goal } goal was in escrow at the close, and is refunded in full
dashboard-round-closing-now = This round is closing: its outcome is decided and the close job is recording the allocations or refunds.
dashboard-round-closed-funded = This round closed successfully; shares were allocated.
dashboard-round-closed-failed = This round closed below its threshold; escrow and service fees were refunded.
confirm-back = ← Back
confirm-cancel = Cancel
confirm-effects = What happens now
confirm-decline-mail = The application { $name } is declined, and the applicant ({ $email }) is mailed the reason you write, in their language.
confirm-decline-final = The application leaves the list; this cannot be undone, and the applicant must apply again.
confirm-decline-reason = Reason for declining (sent to the applicant)
dashboard-app-decline = Decline the application
dashboard-app-decline-reason = Reason for declining
dashboard-app-declined-already = This application was declined already.
dashboard-danger-zone = Actions that cannot be undone
dashboard-danger-zone-text = Each is done on its own page, which shows what will happen and asks you to confirm.
mail-application-declined-subject = Ortak: about your application
mail-application-declined-body = We reviewed your startup's application and decided not to take it further at this stage. Our team's reasons are below. You are welcome to apply again as your startup grows.
mail-application-declined-button = Go to Ortak
confirm-no-open-requests = The member has no open investment request.
confirm-open-requests = The member has { $count } open investment requests, { $escrow } of them in escrow. The requests stay as they are: deal with them first.
confirm-links-end = Every link mailed to the member stops working.
confirm-role-investor = { $name } ({ $email }) becomes an investor: their access to the staff dashboard ends.
confirm-role-admin = { $name } ({ $email }) becomes an admin: they open the staff dashboard and see and change users, applications, startups and rounds (not money movements or roles).
confirm-role-superadmin = { $name } ({ $email }) becomes a superadmin: they see and change everything, escrow receipts, investments, the audit log and other staff's roles included.
confirm-role-enrol = They must enrol an authenticator app at their next sign-in.
confirm-deactivate = The account of { $name } ({ $email }) is closed: every session ends and they cannot sign in until it is restored.
confirm-reactivate = The account of { $name } ({ $email }) is restored: they can sign in again.
confirm-reset-2fa = The authenticator and recovery codes of { $name } ({ $email }) are removed; every session ends and they enrol again at their next sign-in.
confirm-type-email = Type the member's e-mail address to confirm: { $email }
confirm-email-mismatch = That is not the member's e-mail address.
confirm-decline-reason-required = Write a reason: the applicant reads it in their mail.
validation-escrow-minimum = At least 100,000 TL must go to escrow. With the service fee taken out of the amount, less is left: add the fee to the amount, or raise the amount.
validation-no-information-form = This round's approved information form is not published yet; no request is taken until it is.
card-submit-amount = Pay { $amount }
payment-fee-refunded = If your request ends without shares, the service fee goes back to your card in full: if the round fails, if you withdraw within your cancellation window, if our team rejects the request or if a payment deadline passes.
limit-income-link = Update my declared income
investment-back-to-startup = ← Back to the startup
home-limit-note = Non-qualified individual investors have a yearly investment limit; see yours before you join.
limits-title = Your yearly investment limit
limits-description = The yearly limit for non-qualified individual investors in crowdfunding, with a calculator.
limits-rule = Under SPK's rules, a non-qualified individual investor may invest at most { $base } in a calendar year, or { $share }% of their declared annual income (up to { $cap }); the minimum investment is { $minimum }.
limits-routes = So to reach the minimum as an individual, your declared annual income must be at least { $income }, or you must be a qualified investor.
limits-routes-qualified-only = So as an individual you reach the minimum only with qualified-investor status.
limits-qualified = Qualified investors (their declaration verified by our team) have no yearly limit.
limits-qualified-link = Qualified-investor declaration
limits-corporate = Companies (corporate investors) are not subject to the individual limit.
limits-verified = The limit follows the MKK details our team verified, not what was typed, and counts one person's requests across all their accounts.
limits-calculator = Work out your limit
limits-income = Your annual income (TL)
limits-calculate-button = Calculate
limits-calculate = Work out your limit
limits-result-enough = With this income your yearly limit is { $limit }: you can invest the minimum.
limits-result-short = With this income your yearly limit is { $limit }: below the minimum investment, so you would need to be a qualified investor to invest.
limits-join = Join
portfolio-in-escrow = In escrow
portfolio-escrow-text = These amounts are in the escrow account at Takasbank; they become shares when their round closes successfully, and are refunded in full if it fails.
portfolio-escrow-follow = Follow the request
portfolio-none-allocated = No shares allocated to you yet: your money in escrow becomes shares when its round closes successfully.
pending-history = Ended requests
track-title = Track record
track-description = Every round that closed on Ortak, the success rate, what was raised and refunded, whether reports arrived on time, and the partner funds.
track-lead = Everything that went through Ortak, computed from our records: every closed round is here, with its outcome.
track-closed = Rounds closed
track-success = Success rate
track-raised = Raised (allocated)
track-refunded = Refunded
track-investors = Investors holding shares
track-reports-on-time = Reports on time
track-reports-of = { $due ->
    [0] No funded startup owed a quarterly report yet.
    [one] Of the one quarterly report funded startups owed so far, { $on_time ->
        [0] none was
       *[other] it was
    } published by its due date.
   *[other] Of the { $due } quarterly reports funded startups owed so far, { $on_time } were published by their due date.
}
track-none = No round has closed yet.
track-rounds = Closed rounds
track-col-total = In escrow at the close
track-col-closed = Closed
track-partners = Partner funds
track-fund-figures = { $startups ->
    [one] { $startups } startup
   *[other] { $startups } startups
} · { $funded ->
    [one] { $funded } round funded
   *[other] { $funded } rounds funded
}
track-fund-website = The fund's website
track-method = The amounts are the escrow records at each close: allocated in successful rounds, refunded to investors in failed ones. The success rate is funded rounds over closed rounds.
track-link = Track record
