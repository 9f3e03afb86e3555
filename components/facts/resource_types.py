"""The type tokens under which Pulumi registers the resources and invokes the stack uses.

A token is `<package>:<module>:<type>` as the provider's schema names it (pulumi-aws, pulumi-eks and
pulumi-kubernetes `schema.json`, `resources` and `functions`); the offline tools find resources by it and
the tests assert on it. Standard library only.
"""

# pulumi-aws: EKS.
NODE_GROUP = "aws:eks/nodeGroup:NodeGroup"
ADDON = "aws:eks/addon:Addon"
ACCESS_ENTRY = "aws:eks/accessEntry:AccessEntry"
ACCESS_POLICY_ASSOCIATION = "aws:eks/accessPolicyAssociation:AccessPolicyAssociation"
POD_IDENTITY_ASSOCIATION = "aws:eks/podIdentityAssociation:PodIdentityAssociation"
EKS_CONTROL_PLANE = "aws:eks/cluster:Cluster"
"""The control plane itself (`aws.eks.Cluster`), which pulumi-eks's component creates as a child."""
# pulumi-eks: the cluster component.
EKS_CLUSTER = "eks:index:Cluster"
CLUSTER_TYPES = (EKS_CLUSTER, EKS_CONTROL_PLANE)
"""Either form of an EKS cluster a program registers."""

# pulumi-aws: EC2, Auto Scaling, IAM, KMS.
LAUNCH_TEMPLATE = "aws:ec2/launchTemplate:LaunchTemplate"
AUTOSCALING_TAG = "aws:autoscaling/tag:Tag"
ROLE = "aws:iam/role:Role"
ROLE_POLICY = "aws:iam/rolePolicy:RolePolicy"
ROLE_POLICY_ATTACHMENT = "aws:iam/rolePolicyAttachment:RolePolicyAttachment"
KMS_KEY = "aws:kms/key:Key"

# pulumi-aws: Karpenter's interruption queue and its rules, and discovery tags.
SQS_QUEUE = "aws:sqs/queue:Queue"
SQS_QUEUE_POLICY = "aws:sqs/queuePolicy:QueuePolicy"
EVENT_RULE = "aws:cloudwatch/eventRule:EventRule"
EVENT_TARGET = "aws:cloudwatch/eventTarget:EventTarget"
EC2_TAG = "aws:ec2/tag:Tag"

# pulumi-aws: S3, the weights of servers that read them from S3.
S3_BUCKET = "aws:s3/bucket:Bucket"
S3_PUBLIC_ACCESS_BLOCK = "aws:s3/bucketPublicAccessBlock:BucketPublicAccessBlock"
S3_OWNERSHIP_CONTROLS = "aws:s3/bucketOwnershipControls:BucketOwnershipControls"
S3_ENCRYPTION = "aws:s3/bucketServerSideEncryptionConfiguration:BucketServerSideEncryptionConfiguration"
S3_VERSIONING = "aws:s3/bucketVersioning:BucketVersioning"

# pulumi-aws: the network.
VPC = "aws:ec2/vpc:Vpc"
SUBNET = "aws:ec2/subnet:Subnet"
INTERNET_GATEWAY = "aws:ec2/internetGateway:InternetGateway"
NAT_GATEWAY = "aws:ec2/natGateway:NatGateway"
EIP = "aws:ec2/eip:Eip"
ROUTE_TABLE = "aws:ec2/routeTable:RouteTable"
ROUTE = "aws:ec2/route:Route"
ROUTE_TABLE_ASSOCIATION = "aws:ec2/routeTableAssociation:RouteTableAssociation"
VPC_ENDPOINT = "aws:ec2/vpcEndpoint:VpcEndpoint"
SECURITY_GROUP = "aws:ec2/securityGroup:SecurityGroup"
FAST_SNAPSHOT_RESTORE = "aws:ebs/fastSnapshotRestore:FastSnapshotRestore"

# pulumi-aws: invokes (data sources).
GET_AVAILABILITY_ZONES = "aws:index/getAvailabilityZones:getAvailabilityZones"
GET_INSTANCE_TYPE_OFFERINGS = "aws:ec2/getInstanceTypeOfferings:getInstanceTypeOfferings"
GET_SUBNET = "aws:ec2/getSubnet:getSubnet"
GET_SUBNETS = "aws:ec2/getSubnets:getSubnets"
GET_VPC = "aws:ec2/getVpc:getVpc"
GET_CALLER_IDENTITY = "aws:index/getCallerIdentity:getCallerIdentity"
GET_PARTITION = "aws:index/getPartition:getPartition"
GET_REGION = "aws:index/getRegion:getRegion"
GET_ADDON_VERSION = "aws:eks/getAddonVersion:getAddonVersion"
GET_SERVICE_QUOTA = "aws:servicequotas/getServiceQuota:getServiceQuota"
GET_ROLE = "aws:iam/getRole:getRole"

# pulumi-kubernetes.
KARPENTER_NODE_POOL = "kubernetes:karpenter.sh/v1:NodePool"
KARPENTER_NODE_CLASS = "kubernetes:karpenter.k8s.aws/v1:EC2NodeClass"
AUTO_MODE_NODE_CLASS = "kubernetes:eks.amazonaws.com/v1:NodeClass"
HELM_RELEASE = "kubernetes:helm.sh/v3:Release"
NAMESPACE = "kubernetes:core/v1:Namespace"
SERVICE_ACCOUNT = "kubernetes:core/v1:ServiceAccount"
SECRET = "kubernetes:core/v1:Secret"
CONFIG_MAP = "kubernetes:core/v1:ConfigMap"
SERVICE = "kubernetes:core/v1:Service"
PERSISTENT_VOLUME_CLAIM = "kubernetes:core/v1:PersistentVolumeClaim"
DEPLOYMENT = "kubernetes:apps/v1:Deployment"
DAEMONSET = "kubernetes:apps/v1:DaemonSet"
JOB = "kubernetes:batch/v1:Job"
NETWORK_POLICY = "kubernetes:networking.k8s.io/v1:NetworkPolicy"
POD_DISRUPTION_BUDGET = "kubernetes:policy/v1:PodDisruptionBudget"
SERVICE_MONITOR = "kubernetes:monitoring.coreos.com/v1:ServiceMonitor"
PROMETHEUS_RULE = "kubernetes:monitoring.coreos.com/v1:PrometheusRule"
KUBERNETES_PROVIDER = "pulumi:providers:kubernetes"

# The Pulumi engine.
STACK = "pulumi:pulumi:Stack"
LOG_GROUP = "aws:cloudwatch/logGroup:LogGroup"
