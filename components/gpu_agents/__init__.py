"""The agents every GPU node runs: the NVIDIA device plugin and the DCGM exporter."""
