"""Offline tools for a stack: run the real program under Pulumi mocks, render and check what it registers."""
