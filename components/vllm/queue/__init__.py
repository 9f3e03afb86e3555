"""A vLLM server's request queue: SQS and its dead-letter queue, the results in S3, the consumer beside the server (`consumer_script`), and their pure builders (`manifests`)."""
