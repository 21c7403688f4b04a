"""The ops of ``nn.functional``: activations (``softmax`` apart), convolution, pooling,
padding and resampling (``resampling``; ``interpolation`` on both of them), normalization,
layers (linear, embedding, dropout...) and losses. The top family: it builds on all the
others."""
