# Rounds, the money ledger, request timelines, limits and holdings (issue 13).
request-status-waitlisted = On the waitlist
request-status-fee_paid = Fee paid, transfer due
request-status-funded = Transfer received
request-status-allocated = Shares allocated
request-status-refunded = Refunded
request-status-lapsed = Lapsed
timeline-title = Your request, step by step
timeline-next = Next
timeline-waitlisted = Put on the waitlist
timeline-submitted = Sent
timeline-under_review = Under review
timeline-approved = Approved, service fee due
timeline-fee_paid = Service fee paid, transfer due
timeline-funded = Transfer reached escrow
timeline-allocated = Allocated
timeline-refunded = The round closed without being funded: refund recorded
timeline-rejected = Rejected
timeline-cancelled = Cancelled
timeline-lapsed = Lapsed
timeline-fee-refund = Service fee back to your card
timeline-escrow-refund = Escrow refund passed to Takasbank
timeline-next-waitlisted = If room frees up in the round, your request is reviewed in turn (the round closes on { $deadline }).
timeline-next-review = Our team reviews your request.
timeline-next-fee = Pay the service fee by card by { $deadline }.
timeline-next-transfer = Transfer the investment amount to the escrow account with your reference by { $deadline }.
timeline-next-close = The round closes on { $deadline }; if it succeeds, your shares are allocated.
timeline-next-allocated = Your shares are allocated; follow your investment on My investments.
timeline-next-fee-refund = The service fee is being refunded to your card.
timeline-next-escrow-refund = Takasbank returns the escrowed amount to the IBAN you paid from (usually within two business days).
timeline-next-none = There is nothing for you to do on this request.
time-days = { $count ->
    [one] 1 day
   *[other] { $count } days
}
time-hours = { $count ->
    [one] 1 hour
   *[other] { $count } hours
}
time-minutes = { $count ->
    [one] 1 minute
   *[other] { $count } minutes
}
pending-transfer = Transfer details
pending-withdraw-until = You may cancel this request until { $until } ({ $left } left).
pending-withdraw-waitlist = You may cancel a waitlisted request until the round closes.
pending-not-withdrawable = This request can no longer be cancelled: the cancellation window has passed or the round has closed.
status-failed = Not funded
status-closing-soon = Closing soon
startup-committed = Committed (not yet received)
startup-lead-commitment = Lead fund's commitment
startup-outside-raised = Raised outside the platform
startup-waitlist = This round is full: new requests join the waitlist and are reviewed in turn as room frees up.
portfolio-holdings = Your holdings
portfolio-allocated-on = Allocated on
portfolio-share = Share of the round
portfolio-valuation = Latest valuation
portfolio-valuation-of = { $amount } ({ $source }, { $date })
portfolio-value = Value
portfolio-multiple = Multiple
portfolio-total-value = Current value
portfolio-note = Values follow the latest company valuation our team recorded against the round's valuation; they are not realised returns.
investment-needs-verified = Verify your e-mail address before you send investment requests or MKK details.
investment-needs-verified-link = Verify my e-mail address
investment-needs-mkk-review = Your MKK details were rejected before and are being reviewed again. You can send investment requests once our team verifies them.
limit-title = Your annual investment limit
limit-figures = As a non-qualified individual investor you may invest up to { $limit } this year. Used this year: { $used }. Remaining: { $remaining }.
limit-qualified = Qualified investors have no such limit.
limit-qualified-link = Declare qualified-investor status
limit-below-minimum = As a non-qualified individual investor, your remaining limit this year is { $remaining }, while the minimum investment is 100,000 TL. There are two ways on: your qualified-investor declaration can be verified, or, if your annual income is at least { $income }, you can update the income declared in your MKK details (your limit rises once our team verifies it).
validation-over-limit = This amount is more than what remains of your annual limit. Choose a lower amount or declare qualified-investor status.
validation-iban = Please enter a valid IBAN (26 characters starting with TR).
payment-iban = IBAN of the account you pay from
payment-iban-hint = If the round fails or your request ends, Takasbank returns the amount to this account.
mkk-unchanged = You sent the rejected details again without changes. Please correct what the rejection reason names.
mkk-identity-taken = This identity number is registered on another account. Each identity number can be used by one account only; contact us if you think this is wrong.
mkk-needs-verified = Verify your e-mail address before you send your MKK details.
mkk-status-resubmitted = Corrected, our team reviews it again
investment-withdrawn-refund = Your request was cancelled. What you paid is being refunded.
mail-request-waitlisted-subject = Ortak: your request is on the waitlist
mail-request-waitlisted-body = This round is full, so your request joined the waitlist. If other requests are cancelled, rejected or not paid in time, your request is reviewed in turn and we let you know.
mail-request-waitlisted-button = My pending investments
mail-request-promoted-subject = Ortak: room freed up in the round
mail-request-promoted-body = Room freed up in the round and your waitlisted request is now being reviewed.
mail-request-promoted-button = My pending investments
mail-request-funded-subject = Ortak: your transfer reached escrow
mail-request-funded-body = Your investment reached the escrow account at Takasbank. When the round closes, your shares are allocated if it succeeds; otherwise the amount is returned to you.
mail-request-funded-button = My pending investments
mail-request-allocated-subject = Ortak: the round closed successfully, your shares are allocated
mail-request-allocated-body = The round you invested in closed successfully. Your investment and your share of the round are allocated; your shares will be registered with MKK. Follow your investment on My investments.
mail-request-allocated-button = My investments
mail-request-refunded-subject = Ortak: what you paid is being refunded
mail-request-refunded-body = The round closed without reaching its goal, or your request ended after you paid. Takasbank returns the escrowed amount to the IBAN you paid from, and the service fee goes back to your card.
mail-request-refunded-button = My pending investments
mail-request-cancelled-subject = Ortak: your request was cancelled
mail-request-cancelled-body = You cancelled your investment request. Anything you paid is refunded.
mail-request-cancelled-button = My pending investments
mail-request-lapsed-subject = Ortak: your request lapsed
mail-request-lapsed-body = Your request lapsed because a payment deadline passed or the round closed before it got through. Anything you paid is refunded.
mail-request-lapsed-button = My pending investments
mail-deadline-reminder-subject = Ortak: your payment deadline is near
mail-deadline-reminder-body = A payment deadline of your investment request is near. Requests not paid in time lapse; see the next step below.
mail-deadline-reminder-button = Continue to payment
mail-fee-refunded-subject = Ortak: your service fee was refunded
mail-fee-refunded-body = The service fee was refunded to your card. Depending on your bank it may take a few days to appear.
mail-fee-refunded-button = My pending investments
request-moved-meanwhile = This request changed while you were working on it. Reload the page and try again.
round-not-open = This round is closing or closed; its requests can no longer change.
dashboard-startup-round-hint = Whether the round is funded is decided by its close, and the raised amount comes from the escrow records. The lead fund's commitment, amounts raised outside the platform and valuations are on the round's page.
dashboard-rounds = Rounds
dashboard-round-open = Round page
dashboard-round-open-status = Open
dashboard-round-closing = The round is closing; the close job settles its requests one by one.
dashboard-round-funded = Funded
dashboard-round-failed = Failed
dashboard-round-received = In escrow (received)
dashboard-round-capacity = Capacity (goal and overfunding margin)
dashboard-round-waitlisted = Waitlist
dashboard-round-waitlist-of = { $count } requests, { $amount }
dashboard-round-valuation = Round valuation (post-money, TL)
dashboard-round-outside-note = Where the outside amount comes from
dashboard-round-closing-started = Close started
dashboard-round-closed-at = Closed
dashboard-round-deadlines = Payment deadlines
dashboard-round-rules = Cancellation within { $window } hours of the request; the service fee within { $fee } hours of approval, the transfer within { $transfer } hours of the fee.
dashboard-round-due = Due
dashboard-round-close-title = Closing and refunds
dashboard-round-close = Options to end the round early…
dashboard-round-close-hint = Nothing happens on this page: the next one shows, in figures, what an early close (while escrow holds the success threshold, once every open cancellation window and payment deadline has passed) or a termination with a reason would do now, and asks you to confirm.
dashboard-round-close-superadmin = Only superadmins may close a round before its end.
dashboard-round-closed = This round is closing or closed.
dashboard-round-refunds-count = { $count ->
    [one] 1 escrow refund recorded.
   *[other] { $count } escrow refunds recorded.
}
dashboard-round-refunds-csv = Download Takasbank's refund list (CSV)
dashboard-round-figures = Lead fund and outside amounts
dashboard-round-figures-hint = These amounts are not added to the raised amount; the startup's page shows them separately, labelled. The raised amount is only what reached escrow.
dashboard-round-save = Save
dashboard-round-source = Source
dashboard-round-new-valuation = New valuation (TL)
dashboard-round-add-valuation = Add valuation
dashboard-round-reconciliation = Transfer reconciliation
dashboard-round-mismatches = { $count ->
    [one] 1 transfer does not match its amount: contact the investor.
   *[other] { $count } transfers do not match their amounts: contact the investors.
}
dashboard-transfer-returned = Returned
dashboard-transfer-returned-amount = Returned
dashboard-receipt-funded = Transfer recorded; the request is funded.
dashboard-receipt-short = Transfer recorded; the expected amount is not complete yet (mismatch).
dashboard-receipt-returned = Transfer recorded and put on the refund list, as this request cannot take it.
money-fee_paid = Service fee paid
money-fee_refunded = Service fee refunded
money-transfer_instructed = Transfer details given
money-transfer_received = Transfer received
money-allocated = Allocated
money-escrow_refunded = Escrow refund
dashboard-round-closing-status = Closing
