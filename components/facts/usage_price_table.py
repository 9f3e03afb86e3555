"""The per-unit prices of what AWS bills by use that the plan lists beside its totals: generated, do not edit.

Written by `python scripts/usage_prices.py` from scripts/data/usage_prices.json (extracted 2026-12-04); read through
components/facts/prices.py. `RATES` gives each item its price in each region the source bills it in, in the
unit of `UNITS`, in US dollars.
"""

from __future__ import annotations

EXTRACTED = "2026-12-04"
"""When the extract was cut from its source."""
SOURCE: dict[str, str] = {
    "repository": "github.com/FinOps-Open-Cost-and-Usage-Spec/FOCUS-Sample-Data",
    "path": "FOCUS-1.0/focus_sample.csv",
    "commit": "adbdd17a132984d6e8583c149c236d2199c3f5bc",
    "date": "2024-09-01",
}
"""Where the rows were read, the commit, and the first day of the month the prices were billed in."""
UNITS: dict[str, str] = {
    "log_ingestion": "GB",
    "sqs_requests": "million requests",
    "snapshot_storage": "GB-month",
    "s3_standard_storage": "GB-month",
}
RATES: dict[str, dict[str, float]] = {
    "log_ingestion": {
        "us-east-1": 0.5,
        "us-east-2": 0.5,
        "us-west-2": 0.5,
    },
    "sqs_requests": {
        "ap-northeast-2": 0.4,
        "eu-central-1": 0.4,
        "us-east-1": 0.4,
        "us-west-2": 0.4,
    },
    "snapshot_storage": {
        "ap-northeast-1": 0.05,
        "ap-northeast-2": 0.05,
        "ap-southeast-1": 0.05,
        "ap-southeast-2": 0.055,
        "eu-west-2": 0.053,
        "sa-east-1": 0.068,
        "us-east-1": 0.05,
        "us-west-1": 0.055,
        "us-west-2": 0.05,
    },
    "s3_standard_storage": {
        "us-east-1": 0.023,
        "us-west-2": 0.023,
    },
}
"""Each item's price by region."""
