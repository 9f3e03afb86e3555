"""EKS Auto Mode: the cluster's compute configuration (`cluster`), the nodes' role and access entry (`nodes`), a GPU pool as a NodePool and NodeClass (`pool`), and the pure builders (`manifests`)."""
