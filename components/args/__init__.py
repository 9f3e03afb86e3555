"""How a component's inputs are declared and read: `declare` (how a concern lists what its args class takes),
`coerce` (a mapping or settings into args), `validate` (args checked with the settings' rules before anything
registers, and `ArgumentError`), and `placement`, the generated args of the placement contract every GPU
component takes. Each concern's own args class is generated into its folder (`cluster/args.py`, ...)."""
