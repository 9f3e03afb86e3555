"""The plan's report: built once as sections (`build`, `sections`), rendered as text, markdown or JSON."""
