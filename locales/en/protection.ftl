# Investor protection (issue 26): verified MKK data, identity locks, held requests, the
# waitlist, escrow statements and typed receipts.
investment-needs-mkk-verification = Our team is verifying your MKK details. You can send investment requests once they are verified, usually within one business day.
mkk-status-change-pending = Your changes are being reviewed; until then the details verified earlier apply to your investments
mkk-identity-locked = Your investor type and identity number cannot be changed after an investment request. Contact us if they need correcting.
mkk-identity-locked-hint = You have sent an investment request, so your investor type and identity number are locked. Our team can unlock one correction.
mail-mkk-rejected-subject = Ortak: your MKK details need correcting
mail-mkk-rejected-body = Our team could not verify your MKK membership details. Please correct them with the link below; we review them again as soon as you send them.
mail-mkk-rejected-button = Correct my details
mail-mkk-rejected-held = { $count ->
    [one] Until your corrected details are verified, your open investment request is on hold: no fee is charged for it and nothing is allocated to it.
   *[other] Until your corrected details are verified, your { $count } open investment requests are on hold: no fee is charged for them and nothing is allocated to them.
}
pending-held-mkk = This request is on hold because your MKK details were rejected. Correct them to continue.
request-held-mkk = The investor's MKK details are rejected: the request is on hold until corrected details are verified.
request-investor-unverified = The investor's MKK details are not verified yet: verify them before approving.
request-over-limit = Approving would take the investor over their yearly limit (counted for their verified identity).
validation-over-capacity = This round cannot take that much: its goal and overfunding margin leave no room for it. Enter a smaller amount.
dashboard-move-cancelled = Cancel
dashboard-request-made-as = Sent as
dashboard-request-no-snapshot = Sent before verified snapshots were kept
dashboard-request-mkk = MKK details now
dashboard-request-no-mkk = Not sent
dashboard-request-held = Rejected: the request is on hold
dashboard-request-class = Investor class now (verified)
dashboard-request-unverified = Not verified yet
dashboard-request-limit = Yearly limit now
dashboard-request-not-capped = Not capped
dashboard-request-limit-figures = { $limit } · used { $used } · { $remaining } left
investor-class-individual = Individual
investor-class-corporate = Corporate
investor-class-qualified = Qualified investor
dashboard-mkk-verified-identity = Verified identity
dashboard-identity-history = Identities held
dashboard-identity-unlock = Allow one identity correction
validation-name-characters = Use letters only; spaces, hyphens, apostrophes and dots are fine.
bank-payer-verified = as verified in your MKK details. Escrow accepts money only from your own account.
bank-iban-own = This IBAN belongs to an account in my own name (my company's, for a corporate investor). Transfers from anyone else are not accepted, and refunds go back to this IBAN only.
validation-iban-own = Confirm that the IBAN is in your own name.
statements-title = Bank statements
statements-text = Import the clearing bank's statement (ISO 20022 camt.053 XML or SWIFT MT940). A line is recorded as received only when its remittance holds a request's reference, the amount is exactly the one expected and the payer is the investor (their own IBAN and their verified name). Every other line is kept here, flagged, and moves no money until a person says what became of it. The same file cannot be imported twice.
statements-file = Statement file
statements-import = Import the statement
statements-file-required = Choose a statement file.
statements-file-size = The file is larger than 5 MB.
statement-unreadable = This file is neither a camt.053 statement nor an MT940 statement we can read.
statement-not-lira = The statement holds amounts in a currency other than Turkish lira; nothing was imported.
statement-wrong-account = This statement is of another account, not the escrow account; nothing was imported.
statement-already-imported = This file was imported before; nothing was imported again.
statements-imported = Statement imported; every line matched its request.
statements-imported-flagged = Statement imported. Some lines need a person: they are listed first.
statements-flagged = { $count ->
    [one] One line needs a person.
   *[other] { $count } lines need a person.
}
statements-lines-title = Statement lines
statements-payer = Payer
statements-remittance = Remittance
statements-resolve = Mark as handled
statements-not-open = This line is not waiting for a person.
statements-outcome-matched = Received: the request is funded
statements-outcome-returned = Received and sent back
statements-outcome-unknown_reference = No known reference
statements-outcome-amount_mismatch = Not the expected amount
statements-outcome-payer_mismatch = Not from the investor
statements-outcome-debit = Money out
statements-outcome-duplicate = Imported before
statements-typed-title = Typed receipts waiting for a second superadmin
statements-typed-text = A receipt typed by one superadmin is recorded only when another superadmin confirms it.
statements-proposed-by = Typed by
statements-confirm = Confirm and record
statements-proposed = Receipt typed. A second superadmin must confirm it before anything is recorded.
statements-second-superadmin = A typed receipt is confirmed by another superadmin than the one who typed it, once.
statements-type-receipt = Type a receipt
statements-typed-source = Where the figure comes from
disk-full-try-again = Ortak cannot record anything new right now. Nothing was saved; please try again in a few minutes.
busy-try-again = Ortak is very busy right now. Please try again in a few seconds.
storage-full = Files cannot be received right now. Please try again later.
statements-payer-iban = Payer's IBAN
statements-resolution = Resolution
