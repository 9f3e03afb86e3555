"""Offline tools for a stack, one package per tool: `plan` (run the real program under Pulumi mocks, render and
check what it registers), `aws` (the AWS create requests against botocore's models, for the plan) and `audit` (a
running cluster against the same placement model). Beside them what they share: `runtime` (the Pulumi mocks),
`stack_config` (a stack's config read from the project files, and the commands' exit codes) and `__main__` (the
command line)."""
