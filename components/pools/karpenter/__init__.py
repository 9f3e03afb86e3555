"""Karpenter: the controller (`controller`), a GPU pool as a NodePool and EC2NodeClass (`pool`), and the pure builders of both (`manifests`)."""
