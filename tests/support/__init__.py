"""What several test modules share: objects, stack configs, runners and readers, imported as
`tests.support.<module>`."""
