"""The on-demand prices the offline plan and the audit price nodes at: generated, do not edit.

Written by `python scripts/price_table.py` from scripts/data/instance_prices.json (extracted 2026-12-04); read through
components/facts/prices.py. Each row is an instance type and its on-demand Linux price per hour in each region
`region=price`, in the currency of its source. `NOT_OFFERED_ROWS` and `UNCOVERED_ROWS` name every (type, region)
of the settings and the zone table that no source prices, and why.
"""

from __future__ import annotations

EXTRACTED = "2026-12-04"
"""When the extract was cut from its sources."""
SOURCES: dict[str, dict[str, str]] = {
    "gpu": {
        "name": "instances.vantage.sh (the AWS Price List's on-demand Linux prices), as committed in tsaol/aws-gpu",
        "repository": "github.com/tsaol/aws-gpu",
        "path": "data/all_gpu_instances.js",
        "commit": "7412fd256c5eda04a70a17742a68e8e44824b2cb",
        "date": "2026-01-21",
        "currency": "USD",
    },
    "karpenter": {
        "name": "the AWS Price List as Karpenter generates it for its initial prices",
        "repository": "github.com/aws/karpenter-provider-aws",
        "path": (
            "pkg/providers/pricing/zz_generated.pricing_aws.go (us-east-1) and zz_generated.pricing_aws_us_gov.go "
            "(us-gov-east-1, us-gov-west-1)"
        ),
        "commit": "6fc13b5236fd04fd16ff3f9dc7490d0813994099",
        "date": "2026-07-20",
        "currency": "USD",
    },
    "regional": {
        "name": (
            "instances.vantage.sh (the AWS Price List's on-demand Linux prices), as committed in "
            "vantage-sh/ec2instances.info"
        ),
        "repository": "github.com/vantage-sh/ec2instances.info",
        "path": "opszero-app/instances.json",
        "commit": "a19cd859f0591c40bead51230996dcfc8c468071",
        "date": "2024-04-04",
        "currency": "USD",
    },
    "china": {
        "name": (
            "instances.vantage.sh's China dataset (the AWS China Price List's on-demand Linux prices, in yuan), as "
            "committed in tsaol/aws-gpu"
        ),
        "repository": "github.com/tsaol/aws-gpu",
        "path": "data/instances_full_cn.json",
        "commit": "4480bff88ee2da937c52b1b2cdf4e9dcdb760827",
        "date": "2025-11-30",
        "currency": "CNY",
    },
}
"""Each source of the rows: where it was read, the commit, the date it was made and its currency."""

ROWS: dict[str, tuple[str, ...]] = {
    "gpu": (
        (
            "g4dn.xlarge af-south-1=0.698 ap-east-1=0.81 ap-northeast-1=0.71 ap-northeast-2=0.647 ap-northeast-3=0.71 "
            "ap-south-1=0.579 ap-southeast-1=0.736 ap-southeast-2=0.684 ca-central-1=0.584 eu-central-1=0.658 "
            "eu-north-1=0.558 eu-south-1=0.616 eu-west-1=0.587 eu-west-2=0.615 eu-west-3=0.615 me-south-1=0.645 "
            "sa-east-1=0.894 us-east-1=0.526 us-east-2=0.526 us-gov-east-1=0.663 us-gov-west-1=0.663 us-west-1=0.631 "
            "us-west-2=0.526"
        ),
        (
            "g4dn.2xlarge af-south-1=0.998 ap-east-1=1.158 ap-northeast-1=1.015 ap-northeast-2=0.925 ap-northeast-3=1.015 "
            "ap-south-1=0.828 ap-southeast-1=1.052 ap-southeast-2=0.978 ca-central-1=0.835 eu-central-1=0.94 "
            "eu-north-1=0.798 eu-south-1=0.88 eu-west-1=0.838 eu-west-2=0.88 eu-west-3=0.879 me-south-1=0.922 "
            "sa-east-1=1.278 us-east-1=0.752 us-east-2=0.752 us-gov-east-1=0.948 us-gov-west-1=0.948 us-west-1=0.902 "
            "us-west-2=0.752"
        ),
        (
            "g4dn.4xlarge af-south-1=1.597 ap-east-1=1.854 ap-northeast-1=1.625 ap-northeast-2=1.481 ap-northeast-3=1.625 "
            "ap-south-1=1.325 ap-southeast-1=1.685 ap-southeast-2=1.566 ca-central-1=1.337 eu-central-1=1.505 "
            "eu-north-1=1.277 eu-south-1=1.41 eu-west-1=1.342 eu-west-2=1.409 eu-west-3=1.408 me-south-1=1.477 "
            "sa-east-1=2.046 us-east-1=1.204 us-east-2=1.204 us-gov-east-1=1.518 us-gov-west-1=1.518 us-west-1=1.445 "
            "us-west-2=1.204"
        ),
        (
            "g4dn.8xlarge af-south-1=2.887 ap-east-1=3.351 ap-northeast-1=2.938 ap-northeast-2=2.677 ap-northeast-3=2.938 "
            "ap-south-1=2.395 ap-southeast-1=3.045 ap-southeast-2=2.83 ca-central-1=2.416 eu-central-1=2.72 "
            "eu-north-1=2.308 eu-south-1=2.547 eu-west-1=2.426 eu-west-2=2.546 eu-west-3=2.544 me-south-1=2.669 "
            "sa-east-1=3.698 us-east-1=2.176 us-east-2=2.176 us-gov-east-1=2.743 us-gov-west-1=2.743 us-west-1=2.611 "
            "us-west-2=2.176"
        ),
        (
            "g4dn.12xlarge af-south-1=5.19 ap-east-1=6.024 ap-northeast-1=5.281 ap-northeast-2=4.812 ap-northeast-3=5.281 "
            "ap-south-1=4.306 ap-southeast-1=5.474 ap-southeast-2=5.087 ca-central-1=4.343 eu-central-1=4.89 "
            "eu-north-1=4.15 eu-south-1=4.58 eu-west-1=4.362 eu-west-2=4.577 eu-west-3=4.574 me-south-1=4.798 "
            "sa-east-1=6.649 us-east-1=3.912 us-east-2=3.912 us-gov-east-1=4.931 us-gov-west-1=4.931 us-west-1=4.694 "
            "us-west-2=3.912"
        ),
        (
            "g4dn.16xlarge af-south-1=5.774 ap-east-1=6.702 ap-northeast-1=5.875 ap-northeast-2=5.353 ap-northeast-3=5.875 "
            "ap-south-1=4.791 ap-southeast-1=6.089 ap-southeast-2=5.659 ca-central-1=4.832 eu-central-1=5.44 "
            "eu-north-1=4.617 eu-south-1=5.095 eu-west-1=4.853 eu-west-2=5.092 eu-west-3=5.088 me-south-1=5.338 "
            "sa-east-1=7.397 us-east-1=4.352 us-east-2=4.352 us-gov-east-1=5.486 us-gov-west-1=5.486 us-west-1=5.222 "
            "us-west-2=4.352"
        ),
        (
            "g4dn.metal af-south-1=10.381 ap-east-1=12.048 ap-northeast-1=10.562 ap-northeast-2=9.624 ap-northeast-3=10.562 "
            "ap-south-1=8.612 ap-southeast-1=10.948 ap-southeast-2=10.174 ca-central-1=8.687 eu-central-1=9.78 "
            "eu-north-1=8.3 eu-south-1=9.16 eu-west-1=8.724 eu-west-2=9.154 eu-west-3=9.148 me-south-1=9.596 "
            "sa-east-1=13.298 us-east-1=7.824 us-east-2=7.824 us-gov-west-1=9.862 us-west-1=9.389 us-west-2=7.824"
        ),
        (
            "g5.xlarge ap-east-1=1.5488 ap-northeast-1=1.459 ap-northeast-2=1.237 ap-south-1=1.208 ap-southeast-2=1.308 "
            "ap-southeast-3=1.408 ca-central-1=1.117 eu-central-1=1.258 eu-north-1=1.067 eu-west-1=1.123 eu-west-2=1.277 "
            "il-central-1=1.17915 me-central-1=1.234 sa-east-1=1.71 us-east-1=1.006 us-east-2=1.006 us-west-2=1.006"
        ),
        (
            "g5.2xlarge ap-east-1=1.86595 ap-northeast-1=1.75776 ap-northeast-2=1.4903 ap-south-1=1.45536 "
            "ap-southeast-2=1.57584 ap-southeast-3=1.69632 ca-central-1=1.34573 eu-central-1=1.5156 eu-north-1=1.28549 "
            "eu-west-1=1.35296 eu-west-2=1.53849 il-central-1=1.42061 me-central-1=1.48669 sa-east-1=2.06016 "
            "us-east-1=1.212 us-east-2=1.212 us-west-2=1.212"
        ),
        (
            "g5.4xlarge ap-east-1=2.50025 ap-northeast-1=2.35528 ap-northeast-2=1.99691 ap-south-1=1.95009 "
            "ap-southeast-2=2.11152 ap-southeast-3=2.27295 ca-central-1=1.80319 eu-central-1=2.03081 eu-north-1=1.72247 "
            "eu-west-1=1.81287 eu-west-2=2.06148 il-central-1=1.90352 me-central-1=1.99206 sa-east-1=2.76048 "
            "us-east-1=1.624 us-east-2=1.624 us-west-2=1.624"
        ),
        (
            "g5.8xlarge ap-east-1=3.76885 ap-northeast-1=3.55033 ap-northeast-2=3.01012 ap-south-1=2.93955 "
            "ap-southeast-2=3.18289 ap-southeast-3=3.42623 ca-central-1=2.71811 eu-central-1=3.06122 eu-north-1=2.59644 "
            "eu-west-1=2.73271 eu-west-2=3.10745 il-central-1=2.86934 me-central-1=3.00282 sa-east-1=4.16111 "
            "us-east-1=2.448 us-east-2=2.448 us-west-2=2.448"
        ),
        (
            "g5.12xlarge ap-east-1=8.7324 ap-northeast-1=8.22609 ap-northeast-2=6.97442 ap-south-1=6.81091 "
            "ap-southeast-2=7.37473 ap-southeast-3=7.93854 ca-central-1=6.29784 eu-central-1=7.09282 eu-north-1=6.01593 "
            "eu-west-1=6.33167 eu-west-2=7.19994 il-central-1=6.64825 me-central-1=6.9575 sa-east-1=9.64127 us-east-1=5.672 "
            "us-east-2=5.672 us-west-2=5.672"
        ),
        (
            "g5.16xlarge ap-east-1=6.30605 ap-northeast-1=5.94042 ap-northeast-2=5.03653 ap-south-1=4.91846 "
            "ap-southeast-2=5.32561 ap-southeast-3=5.73277 ca-central-1=4.54794 eu-central-1=5.12204 eu-north-1=4.34437 "
            "eu-west-1=4.57237 eu-west-2=5.1994 il-central-1=4.80099 me-central-1=5.02432 sa-east-1=6.96239 us-east-1=4.096 "
            "us-east-2=4.096 us-west-2=4.096"
        ),
        (
            "g5.24xlarge ap-east-1=12.5382 ap-northeast-1=11.81123 ap-northeast-2=10.01404 ap-south-1=9.77928 "
            "ap-southeast-2=10.58882 ap-southeast-3=11.39836 ca-central-1=9.04259 eu-central-1=10.18405 eu-north-1=8.63782 "
            "eu-west-1=9.09117 eu-west-2=10.33786 il-central-1=9.54572 me-central-1=9.98976 sa-east-1=13.84318 "
            "us-east-1=8.144 us-east-2=8.144 us-west-2=8.144"
        ),
        (
            "g5.48xlarge ap-east-1=25.0764 ap-northeast-1=23.62246 ap-northeast-2=20.02809 ap-south-1=19.55855 "
            "ap-southeast-2=21.17764 ap-southeast-3=22.79672 ca-central-1=18.08518 eu-central-1=20.3681 eu-north-1=17.27564 "
            "eu-west-1=18.18233 eu-west-2=20.67572 il-central-1=19.09145 me-central-1=19.97951 sa-east-1=27.68636 "
            "us-east-1=16.288 us-east-2=16.288 us-west-2=16.288"
        ),
        (
            "g5g.xlarge ap-northeast-1=0.5669 ap-northeast-2=0.5166 ap-southeast-1=0.5877 eu-central-1=0.5254 "
            "eu-south-2=0.4687 us-east-1=0.42 us-west-2=0.42"
        ),
        (
            "g5g.2xlarge ap-northeast-1=0.7505 ap-northeast-2=0.6839 ap-southeast-1=0.778 eu-central-1=0.6955 "
            "eu-south-2=0.6205 us-east-1=0.556 us-west-2=0.556"
        ),
        (
            "g5g.4xlarge ap-northeast-1=1.1176 ap-northeast-2=1.0185 ap-southeast-1=1.1586 eu-central-1=1.0358 "
            "eu-south-2=0.924 us-east-1=0.828 us-west-2=0.828"
        ),
        (
            "g5g.8xlarge ap-northeast-1=1.8519 ap-northeast-2=1.6876 ap-southeast-1=1.9198 eu-central-1=1.7163 "
            "eu-south-2=1.5311 us-east-1=1.372 us-west-2=1.372"
        ),
        (
            "g5g.16xlarge ap-northeast-1=3.7039 ap-northeast-2=3.3752 ap-southeast-1=3.8395 eu-central-1=3.4326 "
            "eu-south-2=3.0622 us-east-1=2.744 us-west-2=2.744"
        ),
        (
            "g5g.metal ap-northeast-1=3.7039 ap-northeast-2=3.3752 ap-southeast-1=3.8395 ap-southeast-3=3.8395 "
            "eu-central-1=3.4326 eu-south-2=3.0622 us-east-1=2.744 us-west-2=2.744"
        ),
        (
            "g6.xlarge ap-northeast-1=1.1672 ap-northeast-2=0.9896 ap-south-1=0.9664 ap-south-2=0.9664 "
            "ap-southeast-2=1.0464 ap-southeast-5=1.0138 ca-central-1=0.8936 eu-central-1=1.0064 eu-central-2=1.085 "
            "eu-north-1=0.8536 eu-south-2=0.848 eu-west-2=1.0216 eu-west-3=1.0216 me-central-1=0.98824 sa-east-1=1.368 "
            "us-east-1=0.8048 us-east-2=0.8048 us-gov-east-1=1.0144 us-gov-west-1=1.0144 us-west-2=0.8048"
        ),
        (
            "g6.2xlarge ap-northeast-1=1.41781 ap-northeast-2=1.20208 ap-south-1=1.1739 ap-south-2=1.1739 "
            "ap-southeast-2=1.27107 ap-southeast-5=1.23147 ca-central-1=1.08547 eu-central-1=1.22249 eu-central-2=1.31796 "
            "eu-north-1=1.03688 eu-south-2=1.03008 eu-west-2=1.24095 eu-west-3=1.24095 me-central-1=1.20043 "
            "sa-east-1=1.66173 us-east-1=0.9776 us-east-2=0.9776 us-gov-east-1=1.2322 us-gov-west-1=1.2322 us-west-2=0.9776"
        ),
        (
            "g6.4xlarge ap-northeast-1=1.91903 ap-northeast-2=1.62704 ap-south-1=1.58889 ap-south-2=1.58889 "
            "ap-southeast-2=1.72042 ap-southeast-5=1.66682 ca-central-1=1.4692 eu-central-1=1.65466 eu-central-2=1.78389 "
            "eu-north-1=1.40343 eu-south-2=1.39423 eu-west-2=1.67965 eu-west-3=1.67965 me-central-1=1.6248 "
            "sa-east-1=2.24918 us-east-1=1.3232 us-east-2=1.3232 us-gov-east-1=1.66781 us-gov-west-1=1.66781 "
            "us-west-2=1.3232"
        ),
        (
            "g6.8xlarge ap-northeast-1=2.92148 ap-northeast-2=2.47695 ap-south-1=2.41888 ap-south-2=2.41888 "
            "ap-southeast-2=2.61912 ap-southeast-5=2.53752 ca-central-1=2.23666 eu-central-1=2.519 eu-central-2=2.71574 "
            "eu-north-1=2.13655 eu-south-2=2.12253 eu-west-2=2.55705 eu-west-3=2.55705 me-central-1=2.47355 "
            "sa-east-1=3.42408 us-east-1=2.0144 us-east-2=2.0144 us-gov-east-1=2.53903 us-gov-west-1=2.53903 "
            "us-west-2=2.0144"
        ),
        (
            "g6.12xlarge ap-northeast-1=6.67369 ap-northeast-2=5.65823 ap-south-1=5.52558 ap-south-2=5.52558 "
            "ap-southeast-2=5.98299 ap-southeast-5=5.7966 ca-central-1=5.10933 eu-central-1=5.75429 eu-central-2=6.2037 "
            "eu-north-1=4.88062 eu-south-2=4.8486 eu-west-2=5.8412 eu-west-3=5.8412 me-central-1=5.65045 sa-east-1=7.82181 "
            "us-east-1=4.6016 us-east-2=4.6016 us-gov-east-1=5.80003 us-gov-west-1=5.80003 us-west-2=4.6016"
        ),
        (
            "g6.16xlarge ap-northeast-1=4.92637 ap-northeast-2=4.17678 ap-south-1=4.07886 ap-south-2=4.07886 "
            "ap-southeast-2=4.41652 ap-southeast-5=4.27892 ca-central-1=3.7716 eu-central-1=4.24769 eu-central-2=4.57943 "
            "eu-north-1=3.60277 eu-south-2=3.57913 eu-west-2=4.31184 eu-west-3=4.31184 me-central-1=4.17104 "
            "sa-east-1=5.77388 us-east-1=3.3968 us-east-2=3.3968 us-gov-east-1=4.28145 us-gov-west-1=4.28145 "
            "us-west-2=3.3968"
        ),
        (
            "g6.24xlarge ap-northeast-1=9.68103 ap-northeast-2=8.20797 ap-south-1=8.01555 ap-south-2=8.01555 "
            "ap-southeast-2=8.67909 ap-southeast-5=8.4087 ca-central-1=7.41173 eu-central-1=8.34732 eu-central-2=8.99924 "
            "eu-north-1=7.07996 eu-south-2=7.03351 eu-west-2=8.47339 eu-west-3=8.47339 me-central-1=8.19669 "
            "sa-east-1=11.34651 us-east-1=6.6752 us-east-2=6.6752 us-gov-east-1=8.41367 us-gov-west-1=8.41367 "
            "us-west-2=6.6752"
        ),
        (
            "g6.48xlarge ap-northeast-1=19.36206 ap-northeast-2=16.41595 ap-south-1=16.0311 ap-south-2=16.0311 "
            "ap-southeast-2=17.35817 ap-southeast-5=16.81739 ca-central-1=14.82346 eu-central-1=16.69464 "
            "eu-central-2=17.99849 eu-north-1=14.15992 eu-south-2=14.06702 eu-west-2=16.94678 eu-west-3=16.94678 "
            "me-central-1=16.39339 sa-east-1=22.69303 us-east-1=13.3504 us-east-2=13.3504 us-gov-east-1=16.82734 "
            "us-gov-west-1=16.82734 us-west-2=13.3504"
        ),
        (
            "g6e.xlarge ap-northeast-1=2.699 ap-northeast-2=2.288 eu-central-1=2.327 eu-north-1=1.974 eu-south-2=1.961 "
            "us-east-1=1.861 us-east-2=1.861 us-west-2=1.861"
        ),
        (
            "g6e.2xlarge ap-northeast-1=3.25168 ap-northeast-2=2.75652 eu-central-1=2.8035 eu-north-1=2.37822 "
            "eu-south-2=2.36256 us-east-1=2.24208 us-east-2=2.24208 us-west-2=2.24208"
        ),
        (
            "g6e.4xlarge ap-northeast-1=4.35703 ap-northeast-2=3.69355 eu-central-1=3.75651 eu-north-1=3.18666 "
            "eu-south-2=3.16567 us-east-1=3.00424 us-east-2=3.00424 us-west-2=3.00424"
        ),
        (
            "g6e.8xlarge ap-northeast-1=6.56775 ap-northeast-2=5.56762 eu-central-1=5.66252 eu-north-1=4.80353 "
            "eu-south-2=4.7719 us-east-1=4.52856 us-east-2=4.52856 us-west-2=4.52856"
        ),
        (
            "g6e.12xlarge ap-northeast-1=15.21742 ap-northeast-2=12.90014 eu-central-1=13.12002 eu-north-1=11.12975 "
            "eu-south-2=11.05645 us-east-1=10.49264 us-east-2=10.49264 us-west-2=10.49264"
        ),
        (
            "g6e.16xlarge ap-northeast-1=10.98917 ap-northeast-2=9.31575 eu-central-1=9.47454 eu-north-1=8.03728 "
            "eu-south-2=7.98435 us-east-1=7.57719 us-east-2=7.57719 us-west-2=7.57719"
        ),
        (
            "g6e.24xlarge ap-northeast-1=21.84956 ap-northeast-2=18.52234 eu-central-1=18.83806 eu-north-1=15.98037 "
            "eu-south-2=15.87513 us-east-1=15.06559 us-east-2=15.06559 us-west-2=15.06559"
        ),
        (
            "g6e.48xlarge ap-northeast-1=43.69912 ap-northeast-2=37.04468 eu-central-1=37.67612 eu-north-1=31.96075 "
            "eu-south-2=31.75027 us-east-1=30.13118 us-east-2=30.13118 us-west-2=30.13118"
        ),
        (
            "gr6.4xlarge ap-northeast-1=2.2323 ap-northeast-2=1.8926 ap-south-1=1.8483 ap-southeast-2=2.0012 "
            "ap-southeast-5=1.9388 ca-central-1=1.709 eu-central-1=1.9248 eu-central-2=2.1649 eu-north-1=1.6326 "
            "eu-south-2=1.6218 eu-west-2=1.9539 eu-west-3=1.9538 sa-east-1=2.6164 us-east-1=1.5392 us-east-2=1.5392 "
            "us-gov-east-1=1.9401 us-gov-west-1=1.9401 us-west-2=1.5392"
        ),
        (
            "gr6.8xlarge ap-northeast-1=3.54801 ap-northeast-2=3.00809 ap-south-1=2.93768 ap-southeast-2=3.1807 "
            "ap-southeast-5=3.08152 ca-central-1=2.71628 eu-central-1=3.05927 eu-central-2=3.44089 eu-north-1=2.59485 "
            "eu-south-2=2.57768 eu-west-2=3.10552 eu-west-3=3.10536 sa-east-1=4.1585 us-east-1=2.4464 us-east-2=2.4464 "
            "us-gov-east-1=3.08359 us-gov-west-1=3.08359 us-west-2=2.4464"
        ),
        (
            "p4d.24xlarge ap-northeast-1=30.09784 ap-northeast-2=30.41028 ap-south-1=26.3444 ap-southeast-1=26.34917 "
            "ap-southeast-2=28.54493 ca-central-1=25.25174 eu-central-1=27.43298 eu-north-1=23.71569 eu-west-1=23.71569 "
            "eu-west-2=28.54493 sa-east-1=35.5569 us-east-1=21.957642 us-east-2=21.95764 us-gov-west-1=26.3511 "
            "us-west-2=21.95764"
        ),
        (
            "p4de.24xlarge ap-northeast-1=37.6223 ap-southeast-1=32.93646 eu-central-1=34.29122 il-central-1=35.57346 "
            "us-east-1=27.44705 us-west-2=27.44705"
        ),
        (
            "p5.4xlarge ap-northeast-1=8.6 ap-south-1=8.256 ap-southeast-2=8.944 ap-southeast-3=9.4944 eu-west-2=8.944 "
            "sa-east-1=11.5584 us-east-1=6.88 us-east-2=6.88 us-gov-west-1=8.256 us-west-2=6.88"
        ),
        (
            "p5.48xlarge ap-northeast-1=68.8 ap-northeast-2=75.9552 ap-south-1=66.048 ap-southeast-2=71.552 "
            "ap-southeast-3=75.9552 ca-central-1=63.296 eu-north-1=58.8928 eu-west-2=71.552 sa-east-1=92.4672 "
            "us-east-1=55.04 us-east-2=55.04 us-gov-west-1=66.048 us-west-1=68.8 us-west-2=55.04"
        ),
        (
            "p5en.48xlarge ap-northeast-1=79.12 ap-northeast-2=87.34848 ap-south-1=75.9552 ap-southeast-3=87.34848 "
            "eu-north-1=67.72672 eu-south-2=68.35968 me-central-1=75.9552 us-east-1=63.296 us-east-2=63.296 "
            "us-gov-west-1=75.9552 us-west-1=79.12 us-west-2=63.296"
        ),
    ),
    "karpenter": (
        "m5.large us-east-1=0.096 us-gov-east-1=0.121 us-gov-west-1=0.121",
        "m5.xlarge us-east-1=0.192 us-gov-east-1=0.242 us-gov-west-1=0.242",
        "m5.2xlarge us-east-1=0.384 us-gov-east-1=0.484 us-gov-west-1=0.484",
        "m5.4xlarge us-east-1=0.768 us-gov-east-1=0.968 us-gov-west-1=0.968",
        "m6i.large us-east-1=0.096 us-gov-east-1=0.121 us-gov-west-1=0.121",
        "m6i.xlarge us-east-1=0.192 us-gov-east-1=0.242 us-gov-west-1=0.242",
        "m6i.2xlarge us-east-1=0.384 us-gov-east-1=0.484 us-gov-west-1=0.484",
        "m6i.4xlarge us-east-1=0.768 us-gov-east-1=0.968 us-gov-west-1=0.968",
        "m6a.large us-east-1=0.0864",
        "m6a.xlarge us-east-1=0.1728",
        "m6a.2xlarge us-east-1=0.3456",
        "m6a.4xlarge us-east-1=0.6912",
        "m7i.large us-east-1=0.1008 us-gov-east-1=0.12705 us-gov-west-1=0.12705",
        "m7i.xlarge us-east-1=0.2016 us-gov-east-1=0.2541 us-gov-west-1=0.2541",
        "m7i.2xlarge us-east-1=0.4032 us-gov-east-1=0.5082 us-gov-west-1=0.5082",
        "m7i.4xlarge us-east-1=0.8064 us-gov-east-1=1.0164 us-gov-west-1=1.0164",
        "m7a.large us-east-1=0.11592",
        "m7a.xlarge us-east-1=0.23184",
        "m7a.2xlarge us-east-1=0.46368",
        "m7a.4xlarge us-east-1=0.92736",
        "m6g.large us-east-1=0.077 us-gov-east-1=0.0968 us-gov-west-1=0.0968",
        "m6g.xlarge us-east-1=0.154 us-gov-east-1=0.1936 us-gov-west-1=0.1936",
        "m6g.2xlarge us-east-1=0.308 us-gov-east-1=0.3872 us-gov-west-1=0.3872",
        "m6g.4xlarge us-east-1=0.616 us-gov-east-1=0.7744 us-gov-west-1=0.7744",
        "m7g.large us-east-1=0.0816 us-gov-east-1=0.1028 us-gov-west-1=0.1028",
        "m7g.xlarge us-east-1=0.1632 us-gov-east-1=0.2056 us-gov-west-1=0.2057",
        "m7g.2xlarge us-east-1=0.3264 us-gov-east-1=0.4112 us-gov-west-1=0.4114",
        "m7g.4xlarge us-east-1=0.6528 us-gov-east-1=0.8224 us-gov-west-1=0.8227",
        "t3.medium us-east-1=0.0416 us-gov-east-1=0.0488 us-gov-west-1=0.0488",
        "t3.large us-east-1=0.0832 us-gov-east-1=0.0976 us-gov-west-1=0.0976",
        "t3.xlarge us-east-1=0.1664 us-gov-east-1=0.1952 us-gov-west-1=0.1952",
        "t3.2xlarge us-east-1=0.3328 us-gov-east-1=0.3904 us-gov-west-1=0.3904",
        "t3a.medium us-east-1=0.0376 us-gov-east-1=0.0439 us-gov-west-1=0.0439",
        "t3a.large us-east-1=0.0752 us-gov-east-1=0.0878 us-gov-west-1=0.0878",
        "t3a.xlarge us-east-1=0.1504 us-gov-east-1=0.1757 us-gov-west-1=0.1757",
        "t3a.2xlarge us-east-1=0.3008 us-gov-east-1=0.3514 us-gov-west-1=0.3514",
        "t4g.medium us-east-1=0.0336 us-gov-east-1=0.0392 us-gov-west-1=0.0392",
        "t4g.large us-east-1=0.0672 us-gov-east-1=0.0784 us-gov-west-1=0.0784",
        "t4g.xlarge us-east-1=0.1344 us-gov-east-1=0.1568 us-gov-west-1=0.1568",
        "t4g.2xlarge us-east-1=0.2688 us-gov-east-1=0.3136 us-gov-west-1=0.3136",
        "c5.large us-east-1=0.085 us-gov-east-1=0.102 us-gov-west-1=0.102",
        "c5.xlarge us-east-1=0.17 us-gov-east-1=0.204 us-gov-west-1=0.204",
        "c5.2xlarge us-east-1=0.34 us-gov-east-1=0.408 us-gov-west-1=0.408",
        "c5.4xlarge us-east-1=0.68 us-gov-east-1=0.816 us-gov-west-1=0.816",
        "c6i.large us-east-1=0.085 us-gov-east-1=0.102 us-gov-west-1=0.102",
        "c6i.xlarge us-east-1=0.17 us-gov-east-1=0.204 us-gov-west-1=0.204",
        "c6i.2xlarge us-east-1=0.34 us-gov-east-1=0.408 us-gov-west-1=0.408",
        "c6i.4xlarge us-east-1=0.68 us-gov-east-1=0.816 us-gov-west-1=0.816",
        "c7g.large us-east-1=0.0725 us-gov-east-1=0.0867 us-gov-west-1=0.0867",
        "c7g.xlarge us-east-1=0.145 us-gov-east-1=0.1734 us-gov-west-1=0.1734",
        "c7g.2xlarge us-east-1=0.29 us-gov-east-1=0.3468 us-gov-west-1=0.3468",
        "c7g.4xlarge us-east-1=0.58 us-gov-east-1=0.6936 us-gov-west-1=0.6936",
        "r6i.large us-east-1=0.126 us-gov-east-1=0.151 us-gov-west-1=0.151",
        "r6i.xlarge us-east-1=0.252 us-gov-east-1=0.302 us-gov-west-1=0.302",
        "r6i.2xlarge us-east-1=0.504 us-gov-east-1=0.604 us-gov-west-1=0.604",
    ),
    "regional": (
        (
            "m5.large af-south-1=0.127 ap-east-1=0.132 ap-northeast-1=0.124 ap-northeast-2=0.118 ap-northeast-3=0.124 "
            "ap-south-1=0.101 ap-south-2=0.101 ap-southeast-1=0.12 ap-southeast-2=0.12 ap-southeast-3=0.12 "
            "ap-southeast-4=0.12 ca-central-1=0.107 ca-west-1=0.107 eu-central-1=0.115 eu-central-2=0.127 eu-north-1=0.102 "
            "eu-south-1=0.112 eu-south-2=0.107 eu-west-1=0.107 eu-west-2=0.111 eu-west-3=0.112 il-central-1=0.112 "
            "me-central-1=0.118 me-south-1=0.118 sa-east-1=0.153 us-east-2=0.096 us-west-1=0.112 us-west-2=0.096"
        ),
        (
            "m5.xlarge af-south-1=0.254 ap-east-1=0.264 ap-northeast-1=0.248 ap-northeast-2=0.236 ap-northeast-3=0.248 "
            "ap-south-1=0.202 ap-south-2=0.202 ap-southeast-1=0.24 ap-southeast-2=0.24 ap-southeast-3=0.24 "
            "ap-southeast-4=0.24 ca-central-1=0.214 ca-west-1=0.214 eu-central-1=0.23 eu-central-2=0.253 eu-north-1=0.204 "
            "eu-south-1=0.224 eu-south-2=0.214 eu-west-1=0.214 eu-west-2=0.222 eu-west-3=0.224 il-central-1=0.225 "
            "me-central-1=0.235 me-south-1=0.235 sa-east-1=0.306 us-east-2=0.192 us-west-1=0.224 us-west-2=0.192"
        ),
        (
            "m5.2xlarge af-south-1=0.508 ap-east-1=0.528 ap-northeast-1=0.496 ap-northeast-2=0.472 ap-northeast-3=0.496 "
            "ap-south-1=0.404 ap-south-2=0.404 ap-southeast-1=0.48 ap-southeast-2=0.48 ap-southeast-3=0.48 "
            "ap-southeast-4=0.48 ca-central-1=0.428 ca-west-1=0.428 eu-central-1=0.46 eu-central-2=0.506 eu-north-1=0.408 "
            "eu-south-1=0.448 eu-south-2=0.428 eu-west-1=0.428 eu-west-2=0.444 eu-west-3=0.448 il-central-1=0.449 "
            "me-central-1=0.471 me-south-1=0.471 sa-east-1=0.612 us-east-2=0.384 us-west-1=0.448 us-west-2=0.384"
        ),
        (
            "m5.4xlarge af-south-1=1.016 ap-east-1=1.056 ap-northeast-1=0.992 ap-northeast-2=0.944 ap-northeast-3=0.992 "
            "ap-south-1=0.808 ap-south-2=0.808 ap-southeast-1=0.96 ap-southeast-2=0.96 ap-southeast-3=0.96 "
            "ap-southeast-4=0.96 ca-central-1=0.856 ca-west-1=0.856 eu-central-1=0.92 eu-central-2=1.012 eu-north-1=0.816 "
            "eu-south-1=0.896 eu-south-2=0.856 eu-west-1=0.856 eu-west-2=0.888 eu-west-3=0.896 il-central-1=0.899 "
            "me-central-1=0.942 me-south-1=0.942 sa-east-1=1.224 us-east-2=0.768 us-west-1=0.896 us-west-2=0.768"
        ),
        (
            "m6i.large af-south-1=0.127 ap-east-1=0.132 ap-northeast-1=0.124 ap-northeast-2=0.118 ap-northeast-3=0.124 "
            "ap-south-1=0.101 ap-south-2=0.101 ap-southeast-1=0.12 ap-southeast-2=0.12 ap-southeast-3=0.12 "
            "ca-central-1=0.107 ca-west-1=0.107 eu-central-1=0.115 eu-central-2=0.1265 eu-north-1=0.102 eu-south-1=0.112 "
            "eu-west-1=0.107 eu-west-2=0.111 eu-west-3=0.112 il-central-1=0.11235 me-central-1=0.1177 me-south-1=0.132 "
            "sa-east-1=0.153 us-east-2=0.096 us-west-1=0.112 us-west-2=0.096"
        ),
        (
            "m6i.xlarge af-south-1=0.254 ap-east-1=0.264 ap-northeast-1=0.248 ap-northeast-2=0.236 ap-northeast-3=0.248 "
            "ap-south-1=0.202 ap-south-2=0.202 ap-southeast-1=0.24 ap-southeast-2=0.24 ap-southeast-3=0.24 "
            "ca-central-1=0.214 ca-west-1=0.214 eu-central-1=0.23 eu-central-2=0.253 eu-north-1=0.204 eu-south-1=0.224 "
            "eu-west-1=0.214 eu-west-2=0.222 eu-west-3=0.224 il-central-1=0.2247 me-central-1=0.2354 me-south-1=0.264 "
            "sa-east-1=0.306 us-east-2=0.192 us-west-1=0.224 us-west-2=0.192"
        ),
        (
            "m6i.2xlarge af-south-1=0.508 ap-east-1=0.528 ap-northeast-1=0.496 ap-northeast-2=0.472 ap-northeast-3=0.496 "
            "ap-south-1=0.404 ap-south-2=0.404 ap-southeast-1=0.48 ap-southeast-2=0.48 ap-southeast-3=0.48 "
            "ca-central-1=0.428 ca-west-1=0.428 eu-central-1=0.46 eu-central-2=0.506 eu-north-1=0.408 eu-south-1=0.448 "
            "eu-west-1=0.428 eu-west-2=0.444 eu-west-3=0.448 il-central-1=0.4494 me-central-1=0.4708 me-south-1=0.528 "
            "sa-east-1=0.612 us-east-2=0.384 us-west-1=0.448 us-west-2=0.384"
        ),
        (
            "m6i.4xlarge af-south-1=1.016 ap-east-1=1.056 ap-northeast-1=0.992 ap-northeast-2=0.944 ap-northeast-3=0.992 "
            "ap-south-1=0.808 ap-south-2=0.808 ap-southeast-1=0.96 ap-southeast-2=0.96 ap-southeast-3=0.96 "
            "ca-central-1=0.856 ca-west-1=0.856 eu-central-1=0.92 eu-central-2=1.012 eu-north-1=0.816 eu-south-1=0.896 "
            "eu-west-1=0.856 eu-west-2=0.888 eu-west-3=0.896 il-central-1=0.8988 me-central-1=0.9416 me-south-1=1.056 "
            "sa-east-1=1.224 us-east-2=0.768 us-west-1=0.896 us-west-2=0.768"
        ),
        (
            "m6a.large ap-northeast-1=0.1116 ap-south-1=0.05555 ap-south-2=0.05555 ap-southeast-1=0.108 "
            "ap-southeast-2=0.108 ca-central-1=0.0963 eu-central-1=0.1035 eu-south-1=0.1008 eu-west-1=0.0963 "
            "eu-west-2=0.0999 sa-east-1=0.1377 us-east-2=0.0864 us-west-1=0.1008 us-west-2=0.0864"
        ),
        (
            "m6a.xlarge ap-northeast-1=0.2232 ap-south-1=0.1111 ap-south-2=0.1111 ap-southeast-1=0.216 ap-southeast-2=0.216 "
            "ca-central-1=0.1926 eu-central-1=0.207 eu-south-1=0.2016 eu-west-1=0.1926 eu-west-2=0.1998 sa-east-1=0.2754 "
            "us-east-2=0.1728 us-west-1=0.2016 us-west-2=0.1728"
        ),
        (
            "m6a.2xlarge ap-northeast-1=0.4464 ap-south-1=0.2222 ap-south-2=0.2222 ap-southeast-1=0.432 "
            "ap-southeast-2=0.432 ca-central-1=0.3852 eu-central-1=0.414 eu-south-1=0.4032 eu-west-1=0.3852 "
            "eu-west-2=0.3996 sa-east-1=0.5508 us-east-2=0.3456 us-west-1=0.4032 us-west-2=0.3456"
        ),
        (
            "m6a.4xlarge ap-northeast-1=0.8928 ap-south-1=0.4444 ap-south-2=0.4444 ap-southeast-1=0.864 "
            "ap-southeast-2=0.864 ca-central-1=0.7704 eu-central-1=0.828 eu-south-1=0.8064 eu-west-1=0.7704 "
            "eu-west-2=0.7992 sa-east-1=1.1016 us-east-2=0.6912 us-west-1=0.8064 us-west-2=0.6912"
        ),
        (
            "m7i.large ap-northeast-1=0.1302 ap-northeast-2=0.1239 ap-south-1=0.10605 ap-southeast-1=0.126 "
            "ap-southeast-2=0.126 ca-central-1=0.11235 eu-central-1=0.12075 eu-north-1=0.1071 eu-south-2=0.11235 "
            "eu-west-1=0.11235 eu-west-2=0.11655 eu-west-3=0.1176 sa-east-1=0.16065 us-east-2=0.1008 us-west-1=0.1176 "
            "us-west-2=0.1008"
        ),
        (
            "m7i.xlarge ap-northeast-1=0.2604 ap-northeast-2=0.2478 ap-south-1=0.2121 ap-southeast-1=0.252 "
            "ap-southeast-2=0.252 ca-central-1=0.2247 eu-central-1=0.2415 eu-north-1=0.2142 eu-south-2=0.2247 "
            "eu-west-1=0.2247 eu-west-2=0.2331 eu-west-3=0.2352 sa-east-1=0.3213 us-east-2=0.2016 us-west-1=0.2352 "
            "us-west-2=0.2016"
        ),
        (
            "m7i.2xlarge ap-northeast-1=0.5208 ap-northeast-2=0.4956 ap-south-1=0.4242 ap-southeast-1=0.504 "
            "ap-southeast-2=0.504 ca-central-1=0.4494 eu-central-1=0.483 eu-north-1=0.4284 eu-south-2=0.4494 "
            "eu-west-1=0.4494 eu-west-2=0.4662 eu-west-3=0.4704 sa-east-1=0.6426 us-east-2=0.4032 us-west-1=0.4704 "
            "us-west-2=0.4032"
        ),
        (
            "m7i.4xlarge ap-northeast-1=1.0416 ap-northeast-2=0.9912 ap-south-1=0.8484 ap-southeast-1=1.008 "
            "ap-southeast-2=1.008 ca-central-1=0.8988 eu-central-1=0.966 eu-north-1=0.8568 eu-south-2=0.8988 "
            "eu-west-1=0.8988 eu-west-2=0.9324 eu-west-3=0.9408 sa-east-1=1.2852 us-east-2=0.8064 us-west-1=0.9408 "
            "us-west-2=0.8064"
        ),
        "m7a.large ap-northeast-1=0.14973 eu-west-1=0.1292 us-east-2=0.11592 us-west-2=0.11592",
        "m7a.xlarge ap-northeast-1=0.29946 eu-west-1=0.2584 us-east-2=0.23184 us-west-2=0.23184",
        "m7a.2xlarge ap-northeast-1=0.59892 eu-west-1=0.5168 us-east-2=0.46368 us-west-2=0.46368",
        "m7a.4xlarge ap-northeast-1=1.19784 eu-west-1=1.0336 us-east-2=0.92736 us-west-2=0.92736",
        (
            "m6g.large af-south-1=0.1016 ap-east-1=0.106 ap-northeast-1=0.099 ap-northeast-2=0.094 ap-northeast-3=0.0992 "
            "ap-south-1=0.0506 ap-south-2=0.0506 ap-southeast-1=0.096 ap-southeast-2=0.096 ap-southeast-3=0.096 "
            "ap-southeast-4=0.096 ca-central-1=0.0856 ca-west-1=0.0856 eu-central-1=0.092 eu-central-2=0.1012 "
            "eu-north-1=0.082 eu-south-1=0.0896 eu-south-2=0.086 eu-west-1=0.086 eu-west-2=0.0888 eu-west-3=0.09 "
            "il-central-1=0.0903 me-central-1=0.0946 me-south-1=0.094 sa-east-1=0.1224 us-east-2=0.077 us-west-1=0.0896 "
            "us-west-2=0.077"
        ),
        (
            "m6g.xlarge af-south-1=0.2032 ap-east-1=0.212 ap-northeast-1=0.198 ap-northeast-2=0.188 ap-northeast-3=0.1984 "
            "ap-south-1=0.1012 ap-south-2=0.1012 ap-southeast-1=0.192 ap-southeast-2=0.192 ap-southeast-3=0.192 "
            "ap-southeast-4=0.192 ca-central-1=0.1712 ca-west-1=0.1712 eu-central-1=0.184 eu-central-2=0.2024 "
            "eu-north-1=0.164 eu-south-1=0.1792 eu-south-2=0.172 eu-west-1=0.172 eu-west-2=0.1776 eu-west-3=0.18 "
            "il-central-1=0.1806 me-central-1=0.1892 me-south-1=0.188 sa-east-1=0.2448 us-east-2=0.154 us-west-1=0.1792 "
            "us-west-2=0.154"
        ),
        (
            "m6g.2xlarge af-south-1=0.4064 ap-east-1=0.424 ap-northeast-1=0.396 ap-northeast-2=0.376 ap-northeast-3=0.3968 "
            "ap-south-1=0.2024 ap-south-2=0.2024 ap-southeast-1=0.384 ap-southeast-2=0.384 ap-southeast-3=0.384 "
            "ap-southeast-4=0.384 ca-central-1=0.3424 ca-west-1=0.3424 eu-central-1=0.368 eu-central-2=0.4048 "
            "eu-north-1=0.328 eu-south-1=0.3584 eu-south-2=0.344 eu-west-1=0.344 eu-west-2=0.3552 eu-west-3=0.36 "
            "il-central-1=0.3612 me-central-1=0.3784 me-south-1=0.376 sa-east-1=0.4896 us-east-2=0.308 us-west-1=0.3584 "
            "us-west-2=0.308"
        ),
        (
            "m6g.4xlarge af-south-1=0.8128 ap-east-1=0.848 ap-northeast-1=0.792 ap-northeast-2=0.752 ap-northeast-3=0.7936 "
            "ap-south-1=0.4048 ap-south-2=0.4048 ap-southeast-1=0.768 ap-southeast-2=0.768 ap-southeast-3=0.768 "
            "ap-southeast-4=0.768 ca-central-1=0.6848 ca-west-1=0.6848 eu-central-1=0.736 eu-central-2=0.8096 "
            "eu-north-1=0.656 eu-south-1=0.7168 eu-south-2=0.688 eu-west-1=0.688 eu-west-2=0.7104 eu-west-3=0.72 "
            "il-central-1=0.7224 me-central-1=0.7568 me-south-1=0.752 sa-east-1=0.9792 us-east-2=0.616 us-west-1=0.7168 "
            "us-west-2=0.616"
        ),
        (
            "m7g.large ap-northeast-1=0.1054 ap-northeast-2=0.1003 ap-south-1=0.0583 ap-south-2=0.0583 ap-southeast-1=0.102 "
            "ap-southeast-2=0.102 ca-central-1=0.091 eu-central-1=0.0978 eu-north-1=0.0867 eu-south-2=0.0909 "
            "eu-west-1=0.091 eu-west-2=0.0944 eu-west-3=0.0952 me-south-1=0.1122 sa-east-1=0.1301 us-east-2=0.0816 "
            "us-west-1=0.0952 us-west-2=0.0816"
        ),
        (
            "m7g.xlarge ap-northeast-1=0.2108 ap-northeast-2=0.2006 ap-south-1=0.1166 ap-south-2=0.1166 "
            "ap-southeast-1=0.204 ap-southeast-2=0.204 ca-central-1=0.1819 eu-central-1=0.1955 eu-north-1=0.1734 "
            "eu-south-2=0.1818 eu-west-1=0.1819 eu-west-2=0.1887 eu-west-3=0.1904 me-south-1=0.2244 sa-east-1=0.2601 "
            "us-east-2=0.1632 us-west-1=0.1904 us-west-2=0.1632"
        ),
        (
            "m7g.2xlarge ap-northeast-1=0.4216 ap-northeast-2=0.4012 ap-south-1=0.2333 ap-south-2=0.2333 "
            "ap-southeast-1=0.408 ap-southeast-2=0.408 ca-central-1=0.3638 eu-central-1=0.391 eu-north-1=0.3468 "
            "eu-south-2=0.3636 eu-west-1=0.3638 eu-west-2=0.3774 eu-west-3=0.3808 me-south-1=0.4488 sa-east-1=0.5202 "
            "us-east-2=0.3264 us-west-1=0.3808 us-west-2=0.3264"
        ),
        (
            "m7g.4xlarge ap-northeast-1=0.8432 ap-northeast-2=0.8024 ap-south-1=0.4666 ap-south-2=0.4666 "
            "ap-southeast-1=0.816 ap-southeast-2=0.816 ca-central-1=0.7277 eu-central-1=0.7821 eu-north-1=0.6936 "
            "eu-south-2=0.7272 eu-west-1=0.7276 eu-west-2=0.7549 eu-west-3=0.7616 me-south-1=0.8976 sa-east-1=1.0404 "
            "us-east-2=0.6528 us-west-1=0.7616 us-west-2=0.6528"
        ),
        (
            "t3.medium af-south-1=0.0542 ap-east-1=0.0584 ap-northeast-1=0.0544 ap-northeast-2=0.052 ap-northeast-3=0.0544 "
            "ap-south-1=0.0448 ap-south-2=0.0448 ap-southeast-1=0.0528 ap-southeast-2=0.0528 ap-southeast-3=0.0528 "
            "ap-southeast-4=0.0528 ca-central-1=0.0464 ca-west-1=0.0464 eu-central-1=0.048 eu-central-2=0.0528 "
            "eu-north-1=0.0432 eu-south-1=0.0479 eu-south-2=0.0456 eu-west-1=0.0456 eu-west-2=0.0472 eu-west-3=0.0472 "
            "il-central-1=0.0479 me-central-1=0.0502 me-south-1=0.0502 sa-east-1=0.0672 us-east-2=0.0416 us-west-1=0.0496 "
            "us-west-2=0.0416"
        ),
        (
            "t3.large af-south-1=0.1085 ap-east-1=0.1168 ap-northeast-1=0.1088 ap-northeast-2=0.104 ap-northeast-3=0.1088 "
            "ap-south-1=0.0896 ap-south-2=0.0896 ap-southeast-1=0.1056 ap-southeast-2=0.1056 ap-southeast-3=0.1056 "
            "ap-southeast-4=0.1056 ca-central-1=0.0928 ca-west-1=0.0928 eu-central-1=0.096 eu-central-2=0.1056 "
            "eu-north-1=0.0864 eu-south-1=0.0958 eu-south-2=0.0912 eu-west-1=0.0912 eu-west-2=0.0944 eu-west-3=0.0944 "
            "il-central-1=0.0958 me-central-1=0.1003 me-south-1=0.1003 sa-east-1=0.1344 us-east-2=0.0832 us-west-1=0.0992 "
            "us-west-2=0.0832"
        ),
        (
            "t3.xlarge af-south-1=0.217 ap-east-1=0.2336 ap-northeast-1=0.2176 ap-northeast-2=0.208 ap-northeast-3=0.2176 "
            "ap-south-1=0.1792 ap-south-2=0.1792 ap-southeast-1=0.2112 ap-southeast-2=0.2112 ap-southeast-3=0.2112 "
            "ap-southeast-4=0.2112 ca-central-1=0.1856 ca-west-1=0.1856 eu-central-1=0.192 eu-central-2=0.2112 "
            "eu-north-1=0.1728 eu-south-1=0.1917 eu-south-2=0.1824 eu-west-1=0.1824 eu-west-2=0.1888 eu-west-3=0.1888 "
            "il-central-1=0.1917 me-central-1=0.2006 me-south-1=0.2006 sa-east-1=0.2688 us-east-2=0.1664 us-west-1=0.1984 "
            "us-west-2=0.1664"
        ),
        (
            "t3.2xlarge af-south-1=0.4339 ap-east-1=0.4672 ap-northeast-1=0.4352 ap-northeast-2=0.416 ap-northeast-3=0.4352 "
            "ap-south-1=0.3584 ap-south-2=0.3584 ap-southeast-1=0.4224 ap-southeast-2=0.4224 ap-southeast-3=0.4224 "
            "ap-southeast-4=0.4224 ca-central-1=0.3712 ca-west-1=0.3712 eu-central-1=0.384 eu-central-2=0.4224 "
            "eu-north-1=0.3456 eu-south-1=0.3834 eu-south-2=0.3648 eu-west-1=0.3648 eu-west-2=0.3776 eu-west-3=0.3776 "
            "il-central-1=0.3834 me-central-1=0.4013 me-south-1=0.4013 sa-east-1=0.5376 us-east-2=0.3328 us-west-1=0.3968 "
            "us-west-2=0.3328"
        ),
        (
            "t3a.medium ap-northeast-1=0.049 ap-northeast-2=0.0468 ap-south-1=0.0246 ap-southeast-1=0.0472 "
            "ap-southeast-2=0.0475 ca-central-1=0.0418 eu-central-1=0.0432 eu-south-1=0.0431 eu-west-1=0.0408 "
            "eu-west-2=0.0425 eu-west-3=0.0425 il-central-1=0.0429 sa-east-1=0.0605 us-east-2=0.0376 us-west-1=0.0446 "
            "us-west-2=0.0376"
        ),
        (
            "t3a.large ap-northeast-1=0.0979 ap-northeast-2=0.0936 ap-south-1=0.0493 ap-southeast-1=0.0944 "
            "ap-southeast-2=0.095 ca-central-1=0.0835 eu-central-1=0.0864 eu-south-1=0.0862 eu-west-1=0.0816 "
            "eu-west-2=0.085 eu-west-3=0.085 il-central-1=0.0858 sa-east-1=0.121 us-east-2=0.0752 us-west-1=0.0893 "
            "us-west-2=0.0752"
        ),
        (
            "t3a.xlarge ap-northeast-1=0.1958 ap-northeast-2=0.1872 ap-south-1=0.0986 ap-southeast-1=0.1888 "
            "ap-southeast-2=0.1901 ca-central-1=0.167 eu-central-1=0.1728 eu-south-1=0.1725 eu-west-1=0.1632 "
            "eu-west-2=0.1699 eu-west-3=0.1699 il-central-1=0.1715 sa-east-1=0.2419 us-east-2=0.1504 us-west-1=0.1786 "
            "us-west-2=0.1504"
        ),
        (
            "t3a.2xlarge ap-northeast-1=0.3917 ap-northeast-2=0.3744 ap-south-1=0.1971 ap-southeast-1=0.3776 "
            "ap-southeast-2=0.3802 ca-central-1=0.3341 eu-central-1=0.3456 eu-south-1=0.345 eu-west-1=0.3264 "
            "eu-west-2=0.3398 eu-west-3=0.3398 il-central-1=0.343 sa-east-1=0.4838 us-east-2=0.3008 us-west-1=0.3571 "
            "us-west-2=0.3008"
        ),
        (
            "t4g.medium af-south-1=0.0434 ap-east-1=0.0464 ap-northeast-1=0.0432 ap-northeast-2=0.0416 "
            "ap-northeast-3=0.0435 ap-south-1=0.0224 ap-south-2=0.0224 ap-southeast-1=0.0424 ap-southeast-2=0.0424 "
            "ap-southeast-3=0.0424 ap-southeast-4=0.0424 ca-central-1=0.0368 ca-west-1=0.0368 eu-central-1=0.0384 "
            "eu-central-2=0.0422 eu-north-1=0.0344 eu-south-1=0.0384 eu-south-2=0.0368 eu-west-1=0.0368 eu-west-2=0.0376 "
            "eu-west-3=0.0376 il-central-1=0.0386 me-central-1=0.0408 me-south-1=0.0402 sa-east-1=0.0536 us-east-2=0.0336 "
            "us-west-1=0.04 us-west-2=0.0336"
        ),
        (
            "t4g.large af-south-1=0.0867 ap-east-1=0.0928 ap-northeast-1=0.0864 ap-northeast-2=0.0832 ap-northeast-3=0.087 "
            "ap-south-1=0.0448 ap-south-2=0.0448 ap-southeast-1=0.0848 ap-southeast-2=0.0848 ap-southeast-3=0.0848 "
            "ap-southeast-4=0.0848 ca-central-1=0.0736 ca-west-1=0.0736 eu-central-1=0.0768 eu-central-2=0.0845 "
            "eu-north-1=0.0688 eu-south-1=0.0768 eu-south-2=0.0736 eu-west-1=0.0736 eu-west-2=0.0752 eu-west-3=0.0752 "
            "il-central-1=0.0773 me-central-1=0.0816 me-south-1=0.0803 sa-east-1=0.1072 us-east-2=0.0672 us-west-1=0.08 "
            "us-west-2=0.0672"
        ),
        (
            "t4g.xlarge af-south-1=0.1734 ap-east-1=0.1856 ap-northeast-1=0.1728 ap-northeast-2=0.1664 "
            "ap-northeast-3=0.1741 ap-south-1=0.0896 ap-south-2=0.0896 ap-southeast-1=0.1696 ap-southeast-2=0.1696 "
            "ap-southeast-3=0.1696 ap-southeast-4=0.1696 ca-central-1=0.1472 ca-west-1=0.1472 eu-central-1=0.1536 "
            "eu-central-2=0.169 eu-north-1=0.1376 eu-south-1=0.1536 eu-south-2=0.1472 eu-west-1=0.1472 eu-west-2=0.1504 "
            "eu-west-3=0.1504 il-central-1=0.1546 me-central-1=0.1632 me-south-1=0.1606 sa-east-1=0.2144 us-east-2=0.1344 "
            "us-west-1=0.16 us-west-2=0.1344"
        ),
        (
            "t4g.2xlarge af-south-1=0.3469 ap-east-1=0.3712 ap-northeast-1=0.3456 ap-northeast-2=0.3328 "
            "ap-northeast-3=0.3482 ap-south-1=0.1792 ap-south-2=0.1792 ap-southeast-1=0.3392 ap-southeast-2=0.3392 "
            "ap-southeast-3=0.3392 ap-southeast-4=0.3392 ca-central-1=0.2944 ca-west-1=0.2944 eu-central-1=0.3072 "
            "eu-central-2=0.3379 eu-north-1=0.2752 eu-south-1=0.3072 eu-south-2=0.2944 eu-west-1=0.2944 eu-west-2=0.3008 "
            "eu-west-3=0.3008 il-central-1=0.3091 me-central-1=0.3264 me-south-1=0.3213 sa-east-1=0.4288 us-east-2=0.2688 "
            "us-west-1=0.32 us-west-2=0.2688"
        ),
        (
            "c5.large af-south-1=0.114 ap-east-1=0.108 ap-northeast-1=0.107 ap-northeast-2=0.096 ap-northeast-3=0.107 "
            "ap-south-1=0.085 ap-south-2=0.085 ap-southeast-1=0.098 ap-southeast-2=0.111 ap-southeast-3=0.098 "
            "ap-southeast-4=0.111 ca-central-1=0.093 ca-west-1=0.093 eu-central-1=0.097 eu-central-2=0.107 eu-north-1=0.091 "
            "eu-south-1=0.101 eu-south-2=0.096 eu-west-1=0.096 eu-west-2=0.101 eu-west-3=0.101 il-central-1=0.101 "
            "me-central-1=0.106 me-south-1=0.106 sa-east-1=0.131 us-east-2=0.085 us-west-1=0.106 us-west-2=0.085"
        ),
        (
            "c5.xlarge af-south-1=0.228 ap-east-1=0.216 ap-northeast-1=0.214 ap-northeast-2=0.192 ap-northeast-3=0.214 "
            "ap-south-1=0.17 ap-south-2=0.17 ap-southeast-1=0.196 ap-southeast-2=0.222 ap-southeast-3=0.196 "
            "ap-southeast-4=0.222 ca-central-1=0.186 ca-west-1=0.186 eu-central-1=0.194 eu-central-2=0.213 eu-north-1=0.182 "
            "eu-south-1=0.202 eu-south-2=0.192 eu-west-1=0.192 eu-west-2=0.202 eu-west-3=0.202 il-central-1=0.202 "
            "me-central-1=0.211 me-south-1=0.211 sa-east-1=0.262 us-east-2=0.17 us-west-1=0.212 us-west-2=0.17"
        ),
        (
            "c5.2xlarge af-south-1=0.456 ap-east-1=0.432 ap-northeast-1=0.428 ap-northeast-2=0.384 ap-northeast-3=0.428 "
            "ap-south-1=0.34 ap-south-2=0.34 ap-southeast-1=0.392 ap-southeast-2=0.444 ap-southeast-3=0.392 "
            "ap-southeast-4=0.444 ca-central-1=0.372 ca-west-1=0.372 eu-central-1=0.388 eu-central-2=0.427 eu-north-1=0.364 "
            "eu-south-1=0.404 eu-south-2=0.384 eu-west-1=0.384 eu-west-2=0.404 eu-west-3=0.404 il-central-1=0.403 "
            "me-central-1=0.422 me-south-1=0.422 sa-east-1=0.524 us-east-2=0.34 us-west-1=0.424 us-west-2=0.34"
        ),
        (
            "c5.4xlarge af-south-1=0.912 ap-east-1=0.864 ap-northeast-1=0.856 ap-northeast-2=0.768 ap-northeast-3=0.856 "
            "ap-south-1=0.68 ap-south-2=0.68 ap-southeast-1=0.784 ap-southeast-2=0.888 ap-southeast-3=0.784 "
            "ap-southeast-4=0.888 ca-central-1=0.744 ca-west-1=0.744 eu-central-1=0.776 eu-central-2=0.854 eu-north-1=0.728 "
            "eu-south-1=0.808 eu-south-2=0.768 eu-west-1=0.768 eu-west-2=0.808 eu-west-3=0.808 il-central-1=0.806 "
            "me-central-1=0.845 me-south-1=0.845 sa-east-1=1.048 us-east-2=0.68 us-west-1=0.848 us-west-2=0.68"
        ),
        (
            "c6i.large af-south-1=0.114 ap-east-1=0.108 ap-northeast-1=0.107 ap-northeast-2=0.096 ap-northeast-3=0.107 "
            "ap-south-1=0.085 ap-south-2=0.085 ap-southeast-1=0.098 ap-southeast-2=0.111 ca-central-1=0.093 ca-west-1=0.093 "
            "eu-central-1=0.097 eu-north-1=0.091 eu-south-1=0.101 eu-west-1=0.0912 eu-west-2=0.101 eu-west-3=0.101 "
            "il-central-1=0.09576 me-south-1=0.1056 sa-east-1=0.131 us-east-2=0.085 us-west-1=0.106 us-west-2=0.085"
        ),
        (
            "c6i.xlarge af-south-1=0.228 ap-east-1=0.216 ap-northeast-1=0.214 ap-northeast-2=0.192 ap-northeast-3=0.214 "
            "ap-south-1=0.17 ap-south-2=0.17 ap-southeast-1=0.196 ap-southeast-2=0.222 ca-central-1=0.186 ca-west-1=0.186 "
            "eu-central-1=0.194 eu-north-1=0.182 eu-south-1=0.202 eu-west-1=0.1824 eu-west-2=0.202 eu-west-3=0.202 "
            "il-central-1=0.19152 me-south-1=0.2112 sa-east-1=0.262 us-east-2=0.17 us-west-1=0.212 us-west-2=0.17"
        ),
        (
            "c6i.2xlarge af-south-1=0.456 ap-east-1=0.432 ap-northeast-1=0.428 ap-northeast-2=0.384 ap-northeast-3=0.428 "
            "ap-south-1=0.34 ap-south-2=0.34 ap-southeast-1=0.392 ap-southeast-2=0.444 ca-central-1=0.372 ca-west-1=0.372 "
            "eu-central-1=0.388 eu-north-1=0.364 eu-south-1=0.404 eu-west-1=0.3648 eu-west-2=0.404 eu-west-3=0.404 "
            "il-central-1=0.38304 me-south-1=0.4224 sa-east-1=0.524 us-east-2=0.34 us-west-1=0.424 us-west-2=0.34"
        ),
        (
            "c6i.4xlarge af-south-1=0.912 ap-east-1=0.864 ap-northeast-1=0.856 ap-northeast-2=0.768 ap-northeast-3=0.856 "
            "ap-south-1=0.68 ap-south-2=0.68 ap-southeast-1=0.784 ap-southeast-2=0.888 ca-central-1=0.744 ca-west-1=0.744 "
            "eu-central-1=0.776 eu-north-1=0.728 eu-south-1=0.808 eu-west-1=0.7296 eu-west-2=0.808 eu-west-3=0.808 "
            "il-central-1=0.76608 me-south-1=0.8448 sa-east-1=1.048 us-east-2=0.68 us-west-1=0.848 us-west-2=0.68"
        ),
        (
            "c7g.large ap-northeast-1=0.091 ap-northeast-2=0.0816 ap-south-1=0.0491 ap-south-2=0.0491 ap-southeast-1=0.0833 "
            "ap-southeast-2=0.0944 ca-central-1=0.0791 eu-central-1=0.0825 eu-north-1=0.0774 eu-south-2=0.0775 "
            "eu-west-1=0.0775 eu-west-2=0.0859 us-east-2=0.0723 us-west-1=0.0901 us-west-2=0.0725"
        ),
        (
            "c7g.xlarge ap-northeast-1=0.1819 ap-northeast-2=0.1632 ap-south-1=0.0982 ap-south-2=0.0982 "
            "ap-southeast-1=0.1666 ap-southeast-2=0.1887 ca-central-1=0.1581 eu-central-1=0.1649 eu-north-1=0.1547 "
            "eu-south-2=0.155 eu-west-1=0.155 eu-west-2=0.1717 us-east-2=0.1445 us-west-1=0.1802 us-west-2=0.145"
        ),
        (
            "c7g.2xlarge ap-northeast-1=0.3638 ap-northeast-2=0.3264 ap-south-1=0.1963 ap-south-2=0.1963 "
            "ap-southeast-1=0.3332 ap-southeast-2=0.3774 ca-central-1=0.3162 eu-central-1=0.3298 eu-north-1=0.3094 "
            "eu-south-2=0.31 eu-west-1=0.3101 eu-west-2=0.3434 us-east-2=0.289 us-west-1=0.3604 us-west-2=0.29"
        ),
        (
            "c7g.4xlarge ap-northeast-1=0.7277 ap-northeast-2=0.6528 ap-south-1=0.3926 ap-south-2=0.3926 "
            "ap-southeast-1=0.6664 ap-southeast-2=0.7549 ca-central-1=0.6325 eu-central-1=0.6596 eu-north-1=0.6189 "
            "eu-south-2=0.62 eu-west-1=0.6202 eu-west-2=0.6869 us-east-2=0.5781 us-west-1=0.7208 us-west-2=0.58"
        ),
        (
            "r6i.large af-south-1=0.168 ap-east-1=0.167 ap-northeast-1=0.152 ap-northeast-2=0.152 ap-northeast-3=0.152 "
            "ap-south-1=0.13 ap-south-2=0.13 ap-southeast-1=0.152 ap-southeast-2=0.151 ca-central-1=0.138 ca-west-1=0.138 "
            "eu-central-1=0.152 eu-central-2=0.1672 eu-north-1=0.134 eu-south-1=0.148 eu-west-1=0.141 eu-west-2=0.148 "
            "eu-west-3=0.148 il-central-1=0.14805 me-central-1=0.1551 me-south-1=0.1551 sa-east-1=0.201 us-east-2=0.126 "
            "us-west-1=0.14 us-west-2=0.126"
        ),
        (
            "r6i.xlarge af-south-1=0.336 ap-east-1=0.334 ap-northeast-1=0.304 ap-northeast-2=0.304 ap-northeast-3=0.304 "
            "ap-south-1=0.26 ap-south-2=0.26 ap-southeast-1=0.304 ap-southeast-2=0.302 ca-central-1=0.276 ca-west-1=0.276 "
            "eu-central-1=0.304 eu-central-2=0.3344 eu-north-1=0.268 eu-south-1=0.296 eu-west-1=0.282 eu-west-2=0.296 "
            "eu-west-3=0.296 il-central-1=0.2961 me-central-1=0.3102 me-south-1=0.3102 sa-east-1=0.402 us-east-2=0.252 "
            "us-west-1=0.28 us-west-2=0.252"
        ),
        (
            "r6i.2xlarge af-south-1=0.672 ap-east-1=0.668 ap-northeast-1=0.608 ap-northeast-2=0.608 ap-northeast-3=0.608 "
            "ap-south-1=0.52 ap-south-2=0.52 ap-southeast-1=0.608 ap-southeast-2=0.604 ca-central-1=0.552 ca-west-1=0.552 "
            "eu-central-1=0.608 eu-central-2=0.6688 eu-north-1=0.536 eu-south-1=0.592 eu-west-1=0.564 eu-west-2=0.592 "
            "eu-west-3=0.592 il-central-1=0.5922 me-central-1=0.6204 me-south-1=0.6204 sa-east-1=0.804 us-east-2=0.504 "
            "us-west-1=0.56 us-west-2=0.504"
        ),
    ),
    "china": (
        "m5.large cn-north-1=1.013 cn-northwest-1=0.678",
        "m5.xlarge cn-north-1=2.026 cn-northwest-1=1.356",
        "m5.2xlarge cn-north-1=4.053 cn-northwest-1=2.711",
        "m5.4xlarge cn-north-1=8.106 cn-northwest-1=5.422",
        "m6i.large cn-north-1=1.01321 cn-northwest-1=0.67775",
        "m6i.xlarge cn-north-1=2.02642 cn-northwest-1=1.35551",
        "m6i.2xlarge cn-north-1=4.05283 cn-northwest-1=2.71102",
        "m6i.4xlarge cn-north-1=8.10566 cn-northwest-1=5.42203",
        "m6g.large cn-north-1=0.8037 cn-northwest-1=0.5381",
        "m6g.xlarge cn-north-1=1.6074 cn-northwest-1=1.0762",
        "m6g.2xlarge cn-north-1=3.2149 cn-northwest-1=2.1524",
        "m6g.4xlarge cn-north-1=6.4298 cn-northwest-1=4.3048",
        "m7g.large cn-north-1=0.8612 cn-northwest-1=0.5381",
        "m7g.xlarge cn-north-1=1.7225 cn-northwest-1=1.0762",
        "m7g.2xlarge cn-north-1=3.4449 cn-northwest-1=2.1524",
        "m7g.4xlarge cn-north-1=6.8898 cn-northwest-1=4.3048",
        "t3.medium cn-north-1=0.2629 cn-northwest-1=0.1917",
        "t3.large cn-north-1=0.5258 cn-northwest-1=0.3834",
        "t3.xlarge cn-north-1=1.0515 cn-northwest-1=0.7668",
        "t3.2xlarge cn-north-1=2.1031 cn-northwest-1=1.5335",
        "t3a.medium cn-north-1=0.2366 cn-northwest-1=0.1725",
        "t3a.large cn-north-1=0.4732 cn-northwest-1=0.345",
        "t3a.xlarge cn-north-1=0.9464 cn-northwest-1=0.6901",
        "t3a.2xlarge cn-north-1=1.8928 cn-northwest-1=1.3802",
        "t4g.medium cn-north-1=0.2026 cn-northwest-1=0.1479",
        "t4g.large cn-north-1=0.4053 cn-northwest-1=0.2957",
        "t4g.xlarge cn-north-1=0.8106 cn-northwest-1=0.5915",
        "t4g.2xlarge cn-north-1=1.6211 cn-northwest-1=1.183",
        "c5.large cn-north-1=0.739 cn-northwest-1=0.493",
        "c5.xlarge cn-north-1=1.479 cn-northwest-1=0.986",
        "c5.2xlarge cn-north-1=2.957 cn-northwest-1=1.972",
        "c5.4xlarge cn-north-1=5.915 cn-northwest-1=3.943",
        "c6i.large cn-north-1=0.73937 cn-northwest-1=0.49291",
        "c6i.xlarge cn-north-1=1.47874 cn-northwest-1=0.98582",
        "c6i.2xlarge cn-north-1=2.95747 cn-northwest-1=1.97165",
        "c6i.4xlarge cn-north-1=5.91494 cn-northwest-1=3.9433",
        "c7g.large cn-north-1=0.6285 cn-northwest-1=0.3916",
        "c7g.xlarge cn-north-1=1.2569 cn-northwest-1=0.7832",
        "c7g.2xlarge cn-north-1=2.5139 cn-northwest-1=1.5664",
        "c7g.4xlarge cn-north-1=5.0277 cn-northwest-1=3.1327",
        "r6i.large cn-north-1=1.21859 cn-northwest-1=0.88313",
        "r6i.xlarge cn-north-1=2.43718 cn-northwest-1=1.76627",
        "r6i.2xlarge cn-north-1=4.87435 cn-northwest-1=3.53254",
        "g4dn.xlarge cn-north-1=5.223 cn-northwest-1=3.711",
        "g4dn.2xlarge cn-north-1=7.468 cn-northwest-1=5.305",
        "g4dn.4xlarge cn-north-1=11.956 cn-northwest-1=8.493",
        "g4dn.8xlarge cn-north-1=21.609 cn-northwest-1=15.35",
        "g4dn.12xlarge cn-north-1=38.849 cn-northwest-1=27.596",
        "g4dn.16xlarge cn-north-1=43.218 cn-northwest-1=30.7",
        "g5.xlarge cn-north-1=9.51389 cn-northwest-1=6.70086",
        "g5.2xlarge cn-north-1=11.46206 cn-northwest-1=8.07301",
        "g5.4xlarge cn-north-1=15.3584 cn-northwest-1=10.8173",
        "g5.8xlarge cn-north-1=23.15109 cn-northwest-1=16.30588",
        "g5.12xlarge cn-north-1=53.64092 cn-northwest-1=37.78062",
        "g5.16xlarge cn-north-1=38.73646 cn-northwest-1=27.28304",
        "g5.24xlarge cn-north-1=77.01898 cn-northwest-1=54.24636",
        "g5.48xlarge cn-north-1=154.03795 cn-northwest-1=108.49273",
        "p4d.24xlarge cn-northwest-1=172.873412",
    ),
}
"""The price rows of each source: `type region=price ...`, each (type, region) from one source only."""

NOT_OFFERED_ROWS = (
    (
        "g4dn.xlarge ap-south-2 ap-southeast-3 ap-southeast-4 ap-southeast-5 ca-west-1 eu-central-2 eu-south-2 "
        "il-central-1 me-central-1"
    ),
    (
        "g4dn.2xlarge ap-south-2 ap-southeast-3 ap-southeast-4 ap-southeast-5 ca-west-1 eu-central-2 eu-south-2 "
        "il-central-1 me-central-1"
    ),
    (
        "g4dn.4xlarge ap-south-2 ap-southeast-3 ap-southeast-4 ap-southeast-5 ca-west-1 eu-central-2 eu-south-2 "
        "il-central-1 me-central-1"
    ),
    (
        "g4dn.8xlarge ap-south-2 ap-southeast-3 ap-southeast-4 ap-southeast-5 ca-west-1 eu-central-2 eu-south-2 "
        "il-central-1 me-central-1"
    ),
    (
        "g4dn.12xlarge ap-south-2 ap-southeast-3 ap-southeast-4 ap-southeast-5 ca-west-1 eu-central-2 eu-south-2 "
        "il-central-1 me-central-1"
    ),
    (
        "g4dn.16xlarge ap-south-2 ap-southeast-3 ap-southeast-4 ap-southeast-5 ca-west-1 eu-central-2 eu-south-2 "
        "il-central-1 me-central-1"
    ),
    (
        "g4dn.metal ap-south-2 ap-southeast-3 ap-southeast-4 ap-southeast-5 ca-west-1 cn-north-1 cn-northwest-1 "
        "eu-central-2 eu-south-2 il-central-1 me-central-1 us-gov-east-1"
    ),
    (
        "g5.xlarge af-south-1 ap-northeast-3 ap-south-2 ap-southeast-1 ap-southeast-4 ap-southeast-5 ca-west-1 "
        "eu-central-2 eu-south-1 eu-south-2 eu-west-3 me-south-1 us-gov-east-1 us-gov-west-1 us-west-1"
    ),
    (
        "g5.2xlarge af-south-1 ap-northeast-3 ap-south-2 ap-southeast-1 ap-southeast-4 ap-southeast-5 ca-west-1 "
        "eu-central-2 eu-south-1 eu-south-2 eu-west-3 me-south-1 us-gov-east-1 us-gov-west-1 us-west-1"
    ),
    (
        "g5.4xlarge af-south-1 ap-northeast-3 ap-south-2 ap-southeast-1 ap-southeast-4 ap-southeast-5 ca-west-1 "
        "eu-central-2 eu-south-1 eu-south-2 eu-west-3 me-south-1 us-gov-east-1 us-gov-west-1 us-west-1"
    ),
    (
        "g5.8xlarge af-south-1 ap-northeast-3 ap-south-2 ap-southeast-1 ap-southeast-4 ap-southeast-5 ca-west-1 "
        "eu-central-2 eu-south-1 eu-south-2 eu-west-3 me-south-1 us-gov-east-1 us-gov-west-1 us-west-1"
    ),
    (
        "g5.12xlarge af-south-1 ap-northeast-3 ap-south-2 ap-southeast-1 ap-southeast-4 ap-southeast-5 ca-west-1 "
        "eu-central-2 eu-south-1 eu-south-2 eu-west-3 me-south-1 us-gov-east-1 us-gov-west-1 us-west-1"
    ),
    (
        "g5.16xlarge af-south-1 ap-northeast-3 ap-south-2 ap-southeast-1 ap-southeast-4 ap-southeast-5 ca-west-1 "
        "eu-central-2 eu-south-1 eu-south-2 eu-west-3 me-south-1 us-gov-east-1 us-gov-west-1 us-west-1"
    ),
    (
        "g5.24xlarge af-south-1 ap-northeast-3 ap-south-2 ap-southeast-1 ap-southeast-4 ap-southeast-5 ca-west-1 "
        "eu-central-2 eu-south-1 eu-south-2 eu-west-3 me-south-1 us-gov-east-1 us-gov-west-1 us-west-1"
    ),
    (
        "g5.48xlarge af-south-1 ap-northeast-3 ap-south-2 ap-southeast-1 ap-southeast-4 ap-southeast-5 ca-west-1 "
        "eu-central-2 eu-south-1 eu-south-2 eu-west-3 me-south-1 us-gov-east-1 us-gov-west-1 us-west-1"
    ),
    (
        "g5g.xlarge af-south-1 ap-east-1 ap-northeast-3 ap-south-1 ap-south-2 ap-southeast-2 ap-southeast-3 "
        "ap-southeast-4 ap-southeast-5 ca-central-1 ca-west-1 cn-north-1 cn-northwest-1 eu-central-2 eu-north-1 "
        "eu-south-1 eu-west-1 eu-west-2 eu-west-3 il-central-1 me-central-1 me-south-1 sa-east-1 us-east-2 "
        "us-gov-east-1 us-gov-west-1 us-west-1"
    ),
    (
        "g5g.2xlarge af-south-1 ap-east-1 ap-northeast-3 ap-south-1 ap-south-2 ap-southeast-2 ap-southeast-3 "
        "ap-southeast-4 ap-southeast-5 ca-central-1 ca-west-1 cn-north-1 cn-northwest-1 eu-central-2 eu-north-1 "
        "eu-south-1 eu-west-1 eu-west-2 eu-west-3 il-central-1 me-central-1 me-south-1 sa-east-1 us-east-2 "
        "us-gov-east-1 us-gov-west-1 us-west-1"
    ),
    (
        "g5g.4xlarge af-south-1 ap-east-1 ap-northeast-3 ap-south-1 ap-south-2 ap-southeast-2 ap-southeast-3 "
        "ap-southeast-4 ap-southeast-5 ca-central-1 ca-west-1 cn-north-1 cn-northwest-1 eu-central-2 eu-north-1 "
        "eu-south-1 eu-west-1 eu-west-2 eu-west-3 il-central-1 me-central-1 me-south-1 sa-east-1 us-east-2 "
        "us-gov-east-1 us-gov-west-1 us-west-1"
    ),
    (
        "g5g.8xlarge af-south-1 ap-east-1 ap-northeast-3 ap-south-1 ap-south-2 ap-southeast-2 ap-southeast-3 "
        "ap-southeast-4 ap-southeast-5 ca-central-1 ca-west-1 cn-north-1 cn-northwest-1 eu-central-2 eu-north-1 "
        "eu-south-1 eu-west-1 eu-west-2 eu-west-3 il-central-1 me-central-1 me-south-1 sa-east-1 us-east-2 "
        "us-gov-east-1 us-gov-west-1 us-west-1"
    ),
    (
        "g5g.16xlarge af-south-1 ap-east-1 ap-northeast-3 ap-south-1 ap-south-2 ap-southeast-2 ap-southeast-3 "
        "ap-southeast-4 ap-southeast-5 ca-central-1 ca-west-1 cn-north-1 cn-northwest-1 eu-central-2 eu-north-1 "
        "eu-south-1 eu-west-1 eu-west-2 eu-west-3 il-central-1 me-central-1 me-south-1 sa-east-1 us-east-2 "
        "us-gov-east-1 us-gov-west-1 us-west-1"
    ),
    (
        "g5g.metal af-south-1 ap-east-1 ap-northeast-3 ap-south-1 ap-south-2 ap-southeast-2 ap-southeast-4 "
        "ap-southeast-5 ca-central-1 ca-west-1 cn-north-1 cn-northwest-1 eu-central-2 eu-north-1 eu-south-1 eu-west-1 "
        "eu-west-2 eu-west-3 il-central-1 me-central-1 me-south-1 sa-east-1 us-east-2 us-gov-east-1 us-gov-west-1 "
        "us-west-1"
    ),
    (
        "g6.xlarge af-south-1 ap-east-1 ap-northeast-3 ap-southeast-1 ap-southeast-3 ap-southeast-4 ca-west-1 "
        "cn-north-1 cn-northwest-1 eu-south-1 eu-west-1 il-central-1 me-south-1 us-west-1"
    ),
    (
        "g6.2xlarge af-south-1 ap-east-1 ap-northeast-3 ap-southeast-1 ap-southeast-3 ap-southeast-4 ca-west-1 "
        "cn-north-1 cn-northwest-1 eu-south-1 eu-west-1 il-central-1 me-south-1 us-west-1"
    ),
    (
        "g6.4xlarge af-south-1 ap-east-1 ap-northeast-3 ap-southeast-1 ap-southeast-3 ap-southeast-4 ca-west-1 "
        "cn-north-1 cn-northwest-1 eu-south-1 eu-west-1 il-central-1 me-south-1 us-west-1"
    ),
    (
        "g6.8xlarge af-south-1 ap-east-1 ap-northeast-3 ap-southeast-1 ap-southeast-3 ap-southeast-4 ca-west-1 "
        "cn-north-1 cn-northwest-1 eu-south-1 eu-west-1 il-central-1 me-south-1 us-west-1"
    ),
    (
        "g6.12xlarge af-south-1 ap-east-1 ap-northeast-3 ap-southeast-1 ap-southeast-3 ap-southeast-4 ca-west-1 "
        "cn-north-1 cn-northwest-1 eu-south-1 eu-west-1 il-central-1 me-south-1 us-west-1"
    ),
    (
        "g6.16xlarge af-south-1 ap-east-1 ap-northeast-3 ap-southeast-1 ap-southeast-3 ap-southeast-4 ca-west-1 "
        "cn-north-1 cn-northwest-1 eu-south-1 eu-west-1 il-central-1 me-south-1 us-west-1"
    ),
    (
        "g6.24xlarge af-south-1 ap-east-1 ap-northeast-3 ap-southeast-1 ap-southeast-3 ap-southeast-4 ca-west-1 "
        "cn-north-1 cn-northwest-1 eu-south-1 eu-west-1 il-central-1 me-south-1 us-west-1"
    ),
    (
        "g6.48xlarge af-south-1 ap-east-1 ap-northeast-3 ap-southeast-1 ap-southeast-3 ap-southeast-4 ca-west-1 "
        "cn-north-1 cn-northwest-1 eu-south-1 eu-west-1 il-central-1 me-south-1 us-west-1"
    ),
    (
        "g6e.xlarge af-south-1 ap-east-1 ap-northeast-3 ap-south-1 ap-south-2 ap-southeast-1 ap-southeast-2 "
        "ap-southeast-3 ap-southeast-4 ap-southeast-5 ca-central-1 ca-west-1 cn-north-1 cn-northwest-1 eu-central-2 "
        "eu-south-1 eu-west-1 eu-west-2 eu-west-3 il-central-1 me-central-1 me-south-1 sa-east-1 us-gov-east-1 "
        "us-gov-west-1 us-west-1"
    ),
    (
        "g6e.2xlarge af-south-1 ap-east-1 ap-northeast-3 ap-south-1 ap-south-2 ap-southeast-1 ap-southeast-2 "
        "ap-southeast-3 ap-southeast-4 ap-southeast-5 ca-central-1 ca-west-1 cn-north-1 cn-northwest-1 eu-central-2 "
        "eu-south-1 eu-west-1 eu-west-2 eu-west-3 il-central-1 me-central-1 me-south-1 sa-east-1 us-gov-east-1 "
        "us-gov-west-1 us-west-1"
    ),
    (
        "g6e.4xlarge af-south-1 ap-east-1 ap-northeast-3 ap-south-1 ap-south-2 ap-southeast-1 ap-southeast-2 "
        "ap-southeast-3 ap-southeast-4 ap-southeast-5 ca-central-1 ca-west-1 cn-north-1 cn-northwest-1 eu-central-2 "
        "eu-south-1 eu-west-1 eu-west-2 eu-west-3 il-central-1 me-central-1 me-south-1 sa-east-1 us-gov-east-1 "
        "us-gov-west-1 us-west-1"
    ),
    (
        "g6e.8xlarge af-south-1 ap-east-1 ap-northeast-3 ap-south-1 ap-south-2 ap-southeast-1 ap-southeast-2 "
        "ap-southeast-3 ap-southeast-4 ap-southeast-5 ca-central-1 ca-west-1 cn-north-1 cn-northwest-1 eu-central-2 "
        "eu-south-1 eu-west-1 eu-west-2 eu-west-3 il-central-1 me-central-1 me-south-1 sa-east-1 us-gov-east-1 "
        "us-gov-west-1 us-west-1"
    ),
    (
        "g6e.12xlarge af-south-1 ap-east-1 ap-northeast-3 ap-south-1 ap-south-2 ap-southeast-1 ap-southeast-2 "
        "ap-southeast-3 ap-southeast-4 ap-southeast-5 ca-central-1 ca-west-1 cn-north-1 cn-northwest-1 eu-central-2 "
        "eu-south-1 eu-west-1 eu-west-2 eu-west-3 il-central-1 me-central-1 me-south-1 sa-east-1 us-gov-east-1 "
        "us-gov-west-1 us-west-1"
    ),
    (
        "g6e.16xlarge af-south-1 ap-east-1 ap-northeast-3 ap-south-1 ap-south-2 ap-southeast-1 ap-southeast-2 "
        "ap-southeast-3 ap-southeast-4 ap-southeast-5 ca-central-1 ca-west-1 cn-north-1 cn-northwest-1 eu-central-2 "
        "eu-south-1 eu-west-1 eu-west-2 eu-west-3 il-central-1 me-central-1 me-south-1 sa-east-1 us-gov-east-1 "
        "us-gov-west-1 us-west-1"
    ),
    (
        "g6e.24xlarge af-south-1 ap-east-1 ap-northeast-3 ap-south-1 ap-south-2 ap-southeast-1 ap-southeast-2 "
        "ap-southeast-3 ap-southeast-4 ap-southeast-5 ca-central-1 ca-west-1 cn-north-1 cn-northwest-1 eu-central-2 "
        "eu-south-1 eu-west-1 eu-west-2 eu-west-3 il-central-1 me-central-1 me-south-1 sa-east-1 us-gov-east-1 "
        "us-gov-west-1 us-west-1"
    ),
    (
        "g6e.48xlarge af-south-1 ap-east-1 ap-northeast-3 ap-south-1 ap-south-2 ap-southeast-1 ap-southeast-2 "
        "ap-southeast-3 ap-southeast-4 ap-southeast-5 ca-central-1 ca-west-1 cn-north-1 cn-northwest-1 eu-central-2 "
        "eu-south-1 eu-west-1 eu-west-2 eu-west-3 il-central-1 me-central-1 me-south-1 sa-east-1 us-gov-east-1 "
        "us-gov-west-1 us-west-1"
    ),
    (
        "gr6.4xlarge af-south-1 ap-east-1 ap-northeast-3 ap-south-2 ap-southeast-1 ap-southeast-3 ap-southeast-4 "
        "ca-west-1 cn-north-1 cn-northwest-1 eu-south-1 eu-west-1 il-central-1 me-central-1 me-south-1 us-west-1"
    ),
    (
        "gr6.8xlarge af-south-1 ap-east-1 ap-northeast-3 ap-south-2 ap-southeast-1 ap-southeast-3 ap-southeast-4 "
        "ca-west-1 cn-north-1 cn-northwest-1 eu-south-1 eu-west-1 il-central-1 me-central-1 me-south-1 us-west-1"
    ),
    (
        "p4d.24xlarge af-south-1 ap-east-1 ap-northeast-3 ap-south-2 ap-southeast-3 ap-southeast-4 ap-southeast-5 "
        "ca-west-1 cn-north-1 eu-central-2 eu-south-1 eu-south-2 eu-west-3 il-central-1 me-central-1 me-south-1 "
        "us-gov-east-1 us-west-1"
    ),
    (
        "p4de.24xlarge af-south-1 ap-east-1 ap-northeast-2 ap-northeast-3 ap-south-1 ap-south-2 ap-southeast-2 "
        "ap-southeast-3 ap-southeast-4 ap-southeast-5 ca-central-1 ca-west-1 cn-north-1 cn-northwest-1 eu-central-2 "
        "eu-north-1 eu-south-1 eu-south-2 eu-west-1 eu-west-2 eu-west-3 me-central-1 me-south-1 sa-east-1 us-east-2 "
        "us-gov-east-1 us-gov-west-1 us-west-1"
    ),
    (
        "p5.4xlarge af-south-1 ap-east-1 ap-northeast-2 ap-northeast-3 ap-south-2 ap-southeast-1 ap-southeast-4 "
        "ap-southeast-5 ca-central-1 ca-west-1 cn-north-1 cn-northwest-1 eu-central-1 eu-central-2 eu-north-1 "
        "eu-south-1 eu-south-2 eu-west-1 eu-west-3 il-central-1 me-central-1 me-south-1 us-gov-east-1 us-west-1"
    ),
    (
        "p5.48xlarge af-south-1 ap-east-1 ap-northeast-3 ap-south-2 ap-southeast-1 ap-southeast-4 ap-southeast-5 "
        "ca-west-1 cn-north-1 cn-northwest-1 eu-central-1 eu-central-2 eu-south-1 eu-south-2 eu-west-1 eu-west-3 "
        "il-central-1 me-central-1 me-south-1 us-gov-east-1"
    ),
    (
        "p5e.48xlarge af-south-1 ap-east-1 ap-northeast-1 ap-northeast-2 ap-northeast-3 ap-south-1 ap-south-2 "
        "ap-southeast-1 ap-southeast-2 ap-southeast-3 ap-southeast-4 ap-southeast-5 ca-central-1 ca-west-1 cn-north-1 "
        "cn-northwest-1 eu-central-1 eu-central-2 eu-north-1 eu-south-1 eu-south-2 eu-west-1 eu-west-2 eu-west-3 "
        "il-central-1 me-central-1 me-south-1 sa-east-1 us-east-1 us-east-2 us-gov-east-1 us-gov-west-1 us-west-1 "
        "us-west-2"
    ),
    (
        "p5en.48xlarge af-south-1 ap-east-1 ap-northeast-3 ap-south-2 ap-southeast-1 ap-southeast-2 ap-southeast-4 "
        "ap-southeast-5 ca-central-1 ca-west-1 cn-north-1 cn-northwest-1 eu-central-1 eu-central-2 eu-south-1 eu-west-1 "
        "eu-west-2 eu-west-3 il-central-1 me-south-1 sa-east-1 us-gov-east-1"
    ),
    "m6i.large ap-southeast-4 eu-south-2",
    "m6i.xlarge ap-southeast-4 eu-south-2",
    "m6i.2xlarge ap-southeast-4 eu-south-2",
    "m6i.4xlarge ap-southeast-4 eu-south-2",
    (
        "m6a.large af-south-1 ap-east-1 ap-northeast-2 ap-northeast-3 ap-southeast-3 ap-southeast-4 ca-west-1 "
        "cn-north-1 cn-northwest-1 eu-central-2 eu-north-1 eu-south-2 eu-west-3 il-central-1 me-central-1 me-south-1 "
        "us-gov-east-1 us-gov-west-1"
    ),
    (
        "m6a.xlarge af-south-1 ap-east-1 ap-northeast-2 ap-northeast-3 ap-southeast-3 ap-southeast-4 ca-west-1 "
        "cn-north-1 cn-northwest-1 eu-central-2 eu-north-1 eu-south-2 eu-west-3 il-central-1 me-central-1 me-south-1 "
        "us-gov-east-1 us-gov-west-1"
    ),
    (
        "m6a.2xlarge af-south-1 ap-east-1 ap-northeast-2 ap-northeast-3 ap-southeast-3 ap-southeast-4 ca-west-1 "
        "cn-north-1 cn-northwest-1 eu-central-2 eu-north-1 eu-south-2 eu-west-3 il-central-1 me-central-1 me-south-1 "
        "us-gov-east-1 us-gov-west-1"
    ),
    (
        "m6a.4xlarge af-south-1 ap-east-1 ap-northeast-2 ap-northeast-3 ap-southeast-3 ap-southeast-4 ca-west-1 "
        "cn-north-1 cn-northwest-1 eu-central-2 eu-north-1 eu-south-2 eu-west-3 il-central-1 me-central-1 me-south-1 "
        "us-gov-east-1 us-gov-west-1"
    ),
    (
        "m7i.large af-south-1 ap-east-1 ap-northeast-3 ap-south-2 ap-southeast-3 ap-southeast-4 ca-west-1 cn-north-1 "
        "cn-northwest-1 eu-central-2 eu-south-1 il-central-1 me-central-1 me-south-1"
    ),
    (
        "m7i.xlarge af-south-1 ap-east-1 ap-northeast-3 ap-south-2 ap-southeast-3 ap-southeast-4 ca-west-1 cn-north-1 "
        "cn-northwest-1 eu-central-2 eu-south-1 il-central-1 me-central-1 me-south-1"
    ),
    (
        "m7i.2xlarge af-south-1 ap-east-1 ap-northeast-3 ap-south-2 ap-southeast-3 ap-southeast-4 ca-west-1 cn-north-1 "
        "cn-northwest-1 eu-central-2 eu-south-1 il-central-1 me-central-1 me-south-1"
    ),
    (
        "m7i.4xlarge af-south-1 ap-east-1 ap-northeast-3 ap-south-2 ap-southeast-3 ap-southeast-4 ca-west-1 cn-north-1 "
        "cn-northwest-1 eu-central-2 eu-south-1 il-central-1 me-central-1 me-south-1"
    ),
    (
        "m7a.large af-south-1 ap-east-1 ap-northeast-2 ap-northeast-3 ap-south-1 ap-south-2 ap-southeast-1 "
        "ap-southeast-2 ap-southeast-3 ap-southeast-4 ca-central-1 ca-west-1 cn-north-1 cn-northwest-1 eu-central-1 "
        "eu-central-2 eu-north-1 eu-south-1 eu-south-2 eu-west-2 eu-west-3 il-central-1 me-central-1 me-south-1 "
        "sa-east-1 us-gov-east-1 us-gov-west-1 us-west-1"
    ),
    (
        "m7a.xlarge af-south-1 ap-east-1 ap-northeast-2 ap-northeast-3 ap-south-1 ap-south-2 ap-southeast-1 "
        "ap-southeast-2 ap-southeast-3 ap-southeast-4 ca-central-1 ca-west-1 cn-north-1 cn-northwest-1 eu-central-1 "
        "eu-central-2 eu-north-1 eu-south-1 eu-south-2 eu-west-2 eu-west-3 il-central-1 me-central-1 me-south-1 "
        "sa-east-1 us-gov-east-1 us-gov-west-1 us-west-1"
    ),
    (
        "m7a.2xlarge af-south-1 ap-east-1 ap-northeast-2 ap-northeast-3 ap-south-1 ap-south-2 ap-southeast-1 "
        "ap-southeast-2 ap-southeast-3 ap-southeast-4 ca-central-1 ca-west-1 cn-north-1 cn-northwest-1 eu-central-1 "
        "eu-central-2 eu-north-1 eu-south-1 eu-south-2 eu-west-2 eu-west-3 il-central-1 me-central-1 me-south-1 "
        "sa-east-1 us-gov-east-1 us-gov-west-1 us-west-1"
    ),
    (
        "m7a.4xlarge af-south-1 ap-east-1 ap-northeast-2 ap-northeast-3 ap-south-1 ap-south-2 ap-southeast-1 "
        "ap-southeast-2 ap-southeast-3 ap-southeast-4 ca-central-1 ca-west-1 cn-north-1 cn-northwest-1 eu-central-1 "
        "eu-central-2 eu-north-1 eu-south-1 eu-south-2 eu-west-2 eu-west-3 il-central-1 me-central-1 me-south-1 "
        "sa-east-1 us-gov-east-1 us-gov-west-1 us-west-1"
    ),
    (
        "m7g.large af-south-1 ap-east-1 ap-northeast-3 ap-southeast-3 ap-southeast-4 ca-west-1 eu-central-2 eu-south-1 "
        "il-central-1 me-central-1"
    ),
    (
        "m7g.xlarge af-south-1 ap-east-1 ap-northeast-3 ap-southeast-3 ap-southeast-4 ca-west-1 eu-central-2 eu-south-1 "
        "il-central-1 me-central-1"
    ),
    (
        "m7g.2xlarge af-south-1 ap-east-1 ap-northeast-3 ap-southeast-3 ap-southeast-4 ca-west-1 eu-central-2 "
        "eu-south-1 il-central-1 me-central-1"
    ),
    (
        "m7g.4xlarge af-south-1 ap-east-1 ap-northeast-3 ap-southeast-3 ap-southeast-4 ca-west-1 eu-central-2 "
        "eu-south-1 il-central-1 me-central-1"
    ),
    (
        "t3a.medium af-south-1 ap-east-1 ap-northeast-3 ap-south-2 ap-southeast-3 ap-southeast-4 ca-west-1 eu-central-2 "
        "eu-north-1 eu-south-2 me-central-1 me-south-1"
    ),
    (
        "t3a.large af-south-1 ap-east-1 ap-northeast-3 ap-south-2 ap-southeast-3 ap-southeast-4 ca-west-1 eu-central-2 "
        "eu-north-1 eu-south-2 me-central-1 me-south-1"
    ),
    (
        "t3a.xlarge af-south-1 ap-east-1 ap-northeast-3 ap-south-2 ap-southeast-3 ap-southeast-4 ca-west-1 eu-central-2 "
        "eu-north-1 eu-south-2 me-central-1 me-south-1"
    ),
    (
        "t3a.2xlarge af-south-1 ap-east-1 ap-northeast-3 ap-south-2 ap-southeast-3 ap-southeast-4 ca-west-1 "
        "eu-central-2 eu-north-1 eu-south-2 me-central-1 me-south-1"
    ),
    "c6i.large ap-southeast-3 ap-southeast-4 eu-central-2 eu-south-2 me-central-1",
    "c6i.xlarge ap-southeast-3 ap-southeast-4 eu-central-2 eu-south-2 me-central-1",
    "c6i.2xlarge ap-southeast-3 ap-southeast-4 eu-central-2 eu-south-2 me-central-1",
    "c6i.4xlarge ap-southeast-3 ap-southeast-4 eu-central-2 eu-south-2 me-central-1",
    (
        "c7g.large af-south-1 ap-east-1 ap-northeast-3 ap-southeast-3 ap-southeast-4 ca-west-1 eu-central-2 eu-south-1 "
        "eu-west-3 il-central-1 me-central-1 me-south-1 sa-east-1"
    ),
    (
        "c7g.xlarge af-south-1 ap-east-1 ap-northeast-3 ap-southeast-3 ap-southeast-4 ca-west-1 eu-central-2 eu-south-1 "
        "eu-west-3 il-central-1 me-central-1 me-south-1 sa-east-1"
    ),
    (
        "c7g.2xlarge af-south-1 ap-east-1 ap-northeast-3 ap-southeast-3 ap-southeast-4 ca-west-1 eu-central-2 "
        "eu-south-1 eu-west-3 il-central-1 me-central-1 me-south-1 sa-east-1"
    ),
    (
        "c7g.4xlarge af-south-1 ap-east-1 ap-northeast-3 ap-southeast-3 ap-southeast-4 ca-west-1 eu-central-2 "
        "eu-south-1 eu-west-3 il-central-1 me-central-1 me-south-1 sa-east-1"
    ),
    "r6i.large ap-southeast-3 ap-southeast-4 eu-south-2",
    "r6i.xlarge ap-southeast-3 ap-southeast-4 eu-south-2",
    "r6i.2xlarge ap-southeast-3 ap-southeast-4 eu-south-2",
)
"""Each type and the regions where a source that covers the region lists no price for it: not offered there as of the source's date."""

UNCOVERED_ROWS = (
    "g4dn.xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "g4dn.2xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "g4dn.4xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "g4dn.8xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "g4dn.12xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "g4dn.16xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "g4dn.metal ap-southeast-6 ap-southeast-7 mx-central-1",
    "g5.xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "g5.2xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "g5.4xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "g5.8xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "g5.12xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "g5.16xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "g5.24xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "g5.48xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "g5g.xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "g5g.2xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "g5g.4xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "g5g.8xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "g5g.16xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "g5g.metal ap-southeast-6 ap-southeast-7 mx-central-1",
    "g6.xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "g6.2xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "g6.4xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "g6.8xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "g6.12xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "g6.16xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "g6.24xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "g6.48xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "g6e.xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "g6e.2xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "g6e.4xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "g6e.8xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "g6e.12xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "g6e.16xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "g6e.24xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "g6e.48xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "gr6.4xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "gr6.8xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "p4d.24xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "p4de.24xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "p5.4xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "p5.48xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "p5e.48xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "p5en.48xlarge ap-southeast-6 ap-southeast-7 mx-central-1",
    "m5.large ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "m5.xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "m5.2xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "m5.4xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "m6i.large ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "m6i.xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "m6i.2xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "m6i.4xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "m6a.large ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "m6a.xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "m6a.2xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "m6a.4xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "m7i.large ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "m7i.xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "m7i.2xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "m7i.4xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "m7a.large ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "m7a.xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "m7a.2xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "m7a.4xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "m6g.large ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "m6g.xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "m6g.2xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "m6g.4xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "m7g.large ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "m7g.xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "m7g.2xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "m7g.4xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "t3.medium ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "t3.large ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "t3.xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "t3.2xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "t3a.medium ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "t3a.large ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "t3a.xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "t3a.2xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "t4g.medium ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "t4g.large ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "t4g.xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "t4g.2xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "c5.large ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "c5.xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "c5.2xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "c5.4xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "c6i.large ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "c6i.xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "c6i.2xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "c6i.4xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "c7g.large ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "c7g.xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "c7g.2xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "c7g.4xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "r6i.large ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "r6i.xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
    "r6i.2xlarge ap-southeast-5 ap-southeast-6 ap-southeast-7 mx-central-1",
)
"""Each type and the regions no source covers (regions opened after the sources were made)."""
