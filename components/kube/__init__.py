"""Pure Kubernetes helpers shared by every concern: labels and names, security contexts. No Pulumi here."""
