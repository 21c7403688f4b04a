"""``chainrule.nn``: modules, parameters, initialisation and the functional ops, as ``torch.nn``."""
from . import functional  # noqa: F401  (a submodule, as in torch)
from . import init  # noqa: F401  (a submodule, as in torch)
from . import utils  # noqa: F401  (a submodule, as in torch)
from . import modules  # noqa: F401  (a submodule, as in torch)
from .parameter import Buffer, Parameter
from .modules import (AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveMaxPool1d, AdaptiveMaxPool2d, AlphaDropout,
                      AvgPool1d, AvgPool2d, BCELoss, BCEWithLogitsLoss, BatchNorm1d, BatchNorm2d, BatchNorm3d, Bilinear,
                      CELU, CTCLoss, CircularPad1d, CircularPad2d, CircularPad3d, ConstantPad1d, ConstantPad2d,
                      ConstantPad3d, Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d,
                      CosineEmbeddingLoss, CosineSimilarity, CrossEntropyLoss, Dropout, Dropout1d, Dropout2d, Dropout3d,
                      ELU, Embedding, EmbeddingBag, FeatureAlphaDropout, Flatten, Fold, GELU, GLU, GaussianNLLLoss,
                      GroupNorm, Hardshrink, Hardsigmoid, Hardswish, Hardtanh, HingeEmbeddingLoss, HuberLoss, Identity,
                      InstanceNorm1d, InstanceNorm2d, InstanceNorm3d, KLDivLoss, L1Loss, LPPool1d, LPPool2d, LayerNorm,
                      LeakyReLU, Linear, LocalResponseNorm, LogSigmoid, LogSoftmax, MSELoss, MarginRankingLoss,
                      MaxPool1d, MaxPool2d, Mish, Module, ModuleDict, ModuleList, MultiLabelMarginLoss,
                      MultiLabelSoftMarginLoss, MultiMarginLoss, NLLLoss, PReLU, PairwiseDistance, ParameterDict,
                      ParameterList, PixelShuffle, PixelUnshuffle, PoissonNLLLoss, RMSNorm, RReLU, ReLU, ReLU6,
                      ReflectionPad1d, ReflectionPad2d, ReflectionPad3d, ReplicationPad1d, ReplicationPad2d,
                      ReplicationPad3d, SELU, Sequential, SiLU, Sigmoid, SmoothL1Loss, SoftMarginLoss, Softmax,
                      Softmax2d, Softmin, Softplus, Softshrink, Softsign, Tanh, Tanhshrink, Threshold,
                      TripletMarginLoss, TripletMarginWithDistanceLoss, Unflatten, Unfold, Upsample,
                      UpsamplingBilinear2d, UpsamplingNearest2d, ZeroPad1d, ZeroPad2d, ZeroPad3d)

from .modules import GRU, GRUCell, LSTM, LSTMCell, RNN, RNNBase, RNNCell, RNNCellBase
from .modules import MultiheadAttention
from .modules import (Transformer, TransformerDecoder, TransformerDecoderLayer, TransformerEncoder,
                      TransformerEncoderLayer)

__all__ = ["AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AlphaDropout",
           "AvgPool1d", "AvgPool2d", "BCELoss", "BCEWithLogitsLoss", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d",
           "Bilinear", "Buffer", "CELU", "CTCLoss", "CircularPad1d", "CircularPad2d", "CircularPad3d", "ConstantPad1d",
           "ConstantPad2d", "ConstantPad3d", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d",
           "ConvTranspose3d", "CosineEmbeddingLoss", "CosineSimilarity", "CrossEntropyLoss", "Dropout", "Dropout1d",
           "Dropout2d", "Dropout3d", "ELU", "Embedding", "EmbeddingBag", "FeatureAlphaDropout", "Flatten", "Fold",
           "GELU", "GLU", "GaussianNLLLoss", "GroupNorm", "Hardshrink", "Hardsigmoid", "Hardswish", "Hardtanh",
           "HingeEmbeddingLoss", "HuberLoss", "Identity", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d",
           "KLDivLoss", "L1Loss", "LPPool1d", "LPPool2d", "LayerNorm", "LeakyReLU", "Linear", "LocalResponseNorm",
           "LogSigmoid", "LogSoftmax", "MSELoss", "MarginRankingLoss", "MaxPool1d", "MaxPool2d", "Mish", "Module",
           "ModuleDict", "ModuleList", "MultiLabelMarginLoss", "MultiLabelSoftMarginLoss", "MultiMarginLoss",
           "NLLLoss", "PReLU", "PairwiseDistance", "Parameter", "ParameterDict", "ParameterList", "PixelShuffle",
           "PixelUnshuffle", "PoissonNLLLoss", "RMSNorm", "RReLU", "ReLU", "ReLU6", "ReflectionPad1d",
           "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "SELU",
           "Sequential", "SiLU", "Sigmoid", "SmoothL1Loss", "SoftMarginLoss", "Softmax", "Softmax2d", "Softmin",
           "Softplus", "Softshrink", "Softsign", "Tanh", "Tanhshrink", "Threshold", "TripletMarginLoss",
           "TripletMarginWithDistanceLoss", "Unflatten", "Unfold", "Upsample", "UpsamplingBilinear2d",
           "UpsamplingNearest2d", "ZeroPad1d", "ZeroPad2d", "ZeroPad3d"]
__all__ += ["GRU", "GRUCell", "LSTM", "LSTMCell", "RNN", "RNNBase", "RNNCell", "RNNCellBase"]  # recurrent
__all__ += ["MultiheadAttention"]  # attention
__all__ += ["Transformer", "TransformerDecoder", "TransformerDecoderLayer", "TransformerEncoder",
            "TransformerEncoderLayer"]  # transformer
