"""GPU pools, one component per provisioner: managed node groups here, Karpenter in `karpenter/`, EKS Auto Mode in `auto_mode/`; `provisioners` maps a pool's provisioner to them."""
