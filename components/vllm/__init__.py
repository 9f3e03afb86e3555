"""The vLLM server: the component (`server`), its pure builders (`manifests`, `sizing`), its API key, and its weights (from the Hub, or from S3 with the optional copy Job)."""
