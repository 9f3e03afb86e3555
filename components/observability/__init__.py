"""Metrics, dashboards and alerts: the Prometheus Operator's monitors and rules, and kube-prometheus-stack when the stack installs one."""
