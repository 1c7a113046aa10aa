# Reconfirmation after staff change a live round's terms (issue 17).
reconfirm-term-goal = Funding goal
reconfirm-term-valuation-usd = Valuation (USD)
reconfirm-term-round-valuation = Round valuation (post-money)
reconfirm-term-period = Investment period
reconfirm-term-information-form = Information form
reconfirm-deadline = Reconfirm by
reconfirm-title = The round's terms changed: please reconfirm
reconfirm-lead = Your request does not go ahead until you reconfirm it under the new terms. If you do not reconfirm by { $deadline }, it is cancelled and anything you paid is refunded.
reconfirm-change = { $before } → now { $after }
reconfirm-open-form = Read the new information form (required before you reconfirm)
reconfirm-button = Reconfirm my request
reconfirm-decline = Withdraw my request
reconfirm-done = Thank you: your request goes ahead under the new terms.
reconfirm-open-the-form = Open and read the round's current information form before you reconfirm.
reconfirm-nothing-pending = This request is not waiting for a reconfirmation.
request-awaits-reconfirmation = This request waits for its investor to reconfirm the round's changed terms; it cannot move until then.
round-awaits-reconfirmation = Investors are reconfirming the round's changed terms; the round can close once every answer is in or the deadline has passed.
dashboard-round-reconfirming = Awaiting reconfirmation
dashboard-round-reconfirming-of = { $count ->
    [one] 1 request
   *[other] { $count } requests
}, until { $until }
mail-request-reconfirm-subject = Ortak: the round's terms changed, please reconfirm your request
mail-request-reconfirm-body = The terms of a round you sent an investment request to have changed. Your request does not go ahead until you reconfirm it; if you do not reconfirm by the deadline below, it is cancelled and anything you paid is refunded.
mail-request-reconfirm-button = Reconfirm or withdraw
mail-reconfirm-expired-subject = Ortak: your request was cancelled (not reconfirmed)
mail-reconfirm-expired-body = The round's terms changed and your request was not reconfirmed by the deadline, so it was cancelled. Anything you paid is refunded.
mail-reconfirm-expired-button = My pending investments
