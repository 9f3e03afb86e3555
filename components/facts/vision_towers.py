"""The vision towers of the catalog's multimodal rows (facts/model_catalog_layouts.py), with the figures vLLM's
start-up profiling of their encoder depends on (facts/encoder_peak.py), each from a cited copy of the model's
`config.json`; a row whose figures no copy gives says which are missing. Standard library only.
"""

from __future__ import annotations

from .model_facts import ENCODER_NOT_PROFILED, VisionTower

# Gemma 3 27B's vision tower and projector (config.json): vision_config hidden_size 1152, intermediate_size 4304, 27
# layers, 16 heads (head size 72), image_size 896, patch_size 14, so (896 / 14)^2 = 4096 patches an image;
# mm_tokens_per_image 256 (the projector average-pools them to 16 x 16) of text_config hidden_size 5376. vLLM 0.32.0
# (vllm/model_executor/models/gemma3_mm.py `get_num_crops`) gives an image 1 crop unless `do_pan_and_scan` is set,
# which transformers' Gemma3ImageProcessor leaves unset (`do_pan_and_scan = None`, transformers 5.25.0 wheel, read
# 2026-12-05). SigLIP's MLP is fc1, an activation and fc2 (vllm/model_executor/models/siglip.py `SiglipMLP`).
GEMMA3_SIGLIP_SOURCE = (
    "the vision tower and widths from NVIDIA/TensorRT-LLM tests/unittest/_torch/modeling/test_modeling_gemma3.py at "
    "commit fe6fa01d7fcc2e20f55c756ed9281d6aeabaf494 (GEMMA3_27B_CONFIG: its text layers cut to 6 and window to 4 for "
    "the test, its vision_config whole), read 2026-12-05: vision_config hidden_size 1152, intermediate_size 4304, "
    "num_hidden_layers 27, num_attention_heads 16, image_size 896, patch_size 14; mm_tokens_per_image 256; "
    "text_config hidden_size 5376"
)
GEMMA3_SIGLIP = VisionTower(
    name="SigLIP",
    hidden_size=1152,
    intermediate_size=4304,
    attention_heads=16,
    mlp_tensors=2,
    patch_size=14,
    patches_per_item=(896 // 14) ** 2,
    tokens_per_item=256,
    output_size=5376,
)


# Llama 4's vision tower (vision_config of config.json, the same in Scout and Maverick): hidden_size 1408,
# intermediate_size 5632, 34 layers, 16 heads (head size 88), image_size 336, patch_size 14, pixel_shuffle_ratio 0.5.
# vLLM 0.32.0 (vllm/model_executor/models/mllama4.py) profiles an image of `max_patches` x 336 by 336 (the size with the
# most features, 16:1), which the processor cuts into 16 tiles plus a global one (`1 + r_h * r_w` chunks; transformers'
# `Llama4ImageProcessorFast` adds the global tile when there is more than one, and defaults `max_patches` to 16,
# transformers 5.25.0 wheel, read 2026-12-05; the checkpoints' preprocessor_config.json is not pinned): 17 tiles of
# (336 / 14)^2 = 576 patches and a class token each through the encoder, 17 x 576 / 4 = 2448 embeddings of the text's
# hidden_size 5120 after the pixel shuffle (`get_patch_per_chunk`; `_prompt_split_image` gives 144 patch tokens a tile).
# Its MLP is fc1, GELU and fc2 (`Llama4VisionMLP`); its attention's rotated q and k add 2 x hidden at most, 6 x 1408 =
# 8448 with qkv and the output, under the MLP's 2 x 5632 = 11264, so the MLP stays the widest tensor.
LLAMA4_VISION_COPY = (
    "ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/meta-llama--{}_config.json at commit "
    "64c5ddb697dd8ad88a938f65b23d25cf5f45de12"
)
LLAMA4_VISION_FIELDS = (
    "vision_config hidden_size 1408, intermediate_size 5632, num_hidden_layers 34, num_attention_heads 16, image_size "
    "336, patch_size 14, pixel_shuffle_ratio 0.5"
)
MAVERICK_VISION_SOURCE = (
    "the vision tower (the copy sets its layers to 0) from "
    + LLAMA4_VISION_COPY.format("Llama-4-Maverick-17B-128E-Instruct")
    + ": "
    + LLAMA4_VISION_FIELDS
)
LLAMA4_TEXT_HIDDEN_SIZE = 5120
"""Llama 4's text_config hidden_size (Scout's and Maverick's rows), the width of the embeddings the projector gives."""
LLAMA4_VISION = VisionTower(
    name="Llama 4",
    hidden_size=1408,
    intermediate_size=5632,
    attention_heads=16,
    mlp_tensors=2,
    patch_size=14,
    patches_per_item=17 * ((336 // 14) ** 2 + 1),
    tokens_per_item=17 * (336 // 14) ** 2 // 4,
    output_size=LLAMA4_TEXT_HIDDEN_SIZE,
)


# Mistral Small 3.1 and 3.2's 24B parameters (their cards) include the Pixtral encoder, config.json's vision_config of
# 24 layers of hidden_size 1024 (facts/model_catalog_layouts.py). Its profiling peak is not counted: vLLM 0.32.0 reads
# Mistral's params.json instead of config.json where the repository holds consolidated*.safetensors
# (vllm/transformers_utils/config.py `get_config`, repo_utils.py `is_mistral_model_repo`), and neither file's vision
# figures nor the repository's file list is pinned for these rows: the image size vLLM profiles (params.json's
# vision_encoder.image_size, or the processor's size.longest_edge for config.json), the patch size, the spatial merge
# and the MLP's width.
PIXTRAL_NOT_PROFILED = ENCODER_NOT_PROFILED.format("Pixtral") + (
    " (no pinned copy of its image size, patch size, spatial merge and MLP width)"
)
