"""The component package: the components as a Pulumi plugin that programs in any Pulumi language use."""
