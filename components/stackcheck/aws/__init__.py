"""Whether AWS would accept the create requests a stack's resources make, checked offline.

Modules: check (`check_resources`: each resource's requests, checked), builders, eks_builders and
network_builders (the requests each provider builds from a resource's inputs), api_models (botocore's service
models, read as data), rules and network_rules (what AWS enforces beyond the models).
"""
