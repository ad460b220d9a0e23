// datasets.h — the course's data, shipped as code: a deterministic synthetic image-classification set with
// train and test splits (M06 trains on it), and calibration_batches, the calibration set the PTQ lessons
// use (its train split with four classes, cut into batches).
//
//   pt::TensorDataset train = pt::synthetic_images("train", 2048);   // x [2048, 3, 16, 16], labels [2048]
//   pt::TensorDataset test = pt::synthetic_images("test", 1024);
//   pt::TensorDataset easy = pt::synthetic_images("train", 256, {.num_classes = 4, .noise = 0.05});
//   std::vector<pt::Batch> cal = pt::calibration_batches(256, 32);   // four classes, noise 0.05, in batches
//   // shuffled batches for training: pt::DataLoader (train/data.h)
//
// Each sample is drawn in pixel space with intensities in [0, 1], like torchvision's ToTensor(): a shape
// mask m(h, w) in [0, 1] for the sample's class, painted per channel c as
//   pixel_c = clamp(bg_c + (fg_c - bg_c) * m + noise * randn, 0, 1),
// with a per-sample colour: background bg_c ~ U(0, 0.3), foreground fg_c ~ U(0.6, 1) for each channel (so
// brightness and contrast vary between samples and channels). Sample i has label i % num_classes; the
// shapes, each with per-sample random position / size:
//   0 bars      stripes along a random axis (rows or columns), period U{4, 5, 6} px, random phase,
//               "on" for the first floor(period / 2) px of each period
//   1 ring      anti-aliased annulus: centre uniform in the middle half of the image, radius
//               U(0.2, 0.35) * min(H, W), 1.5 px wide (m = max(0, 1 - |d - r| / 1.5))
//   2 checker   checkerboard, cell size U{2, 3, 4} px, random offset
//   3 gradient  linear ramp from 0 to 1 across the image along a random direction
//   4 disc      filled disc, centre and radius as the ring's, anti-aliased edge (m = clamp(r - d + 0.5, 0, 1))
//   5 plus      a horizontal and a vertical bar through a centre in the middle half, U{2, 3} px thick
//   6 diagonal  stripes along a random diagonal ((h + w) or (h - w)), period U{4, 5, 6} px, random phase
//   7 frame     square outline, side U(0.45, 0.8) * min(H, W) at a random place inside, 2 px wide
//   8 dots      2 x 2 px spots on a grid of period U{4, 5} px, random offset
//   9 cross     the two diagonals of a square window through a centre in the middle half, 1.5 px wide
// Then each channel is normalized like transforms.Normalize(mean, std) with the set's own mean and std,
// computed once per option set from the train split's first 1024 samples (the way a data set's Normalize
// constants come from its training split), so sample i does not depend on n and both splits share them.
// Random numbers come from a private Generator, drawn sample by sample (n samples are a prefix of a longer
// draw): seeded with `seed` for the train split and seed + 1 for the test split; the default generator is
// not touched.
//
// Why this design: real images are bounded, smooth and spatially correlated, with a few strong edges, and
// after Normalize their per-pixel values are far from i.i.d. Gaussian. example_inputs (what the seeds
// evaluate on) is i.i.d. randn, so calibrating on these images and evaluating on randn is a calibration /
// evaluation mismatch, which is what the activation observers see in a notebook that calibrates on its data
// set and measures SQNR on randn. The shapes and colours were fixed before any SQNR was measured with the
// set and are not tuned to a seed's numbers; `noise` is the set's difficulty knob.
//
// Errors: ValueError for num_classes outside 2..10, n < 1, a negative or NaN noise, a sample_shape that is
// not three positive sizes, or a split other than "train" / "test".
#pragma once
#include <cstdint>
#include <string>
#include <vector>


#include "core/tensor.h"

namespace pt {

// The defaults are M06's training set: ten classes with noise 0.3, where TinyConvNet(num_classes=10)
// reaches about 99 % test accuracy in 200 SGD steps of 32 samples (tests/engine/train/test_qat_accuracy.cpp).
struct SyntheticImages {
  int64_t num_classes = 10;
  Shape sample_shape{3, 16, 16};  // (C, H, W)
  double noise = 0.3;             // std of the pixel noise, in pixel units ([0, 1] intensities)
  uint64_t seed = 2024;
};

// torch.utils.data.TensorDataset(x, labels): every sample of a split.
struct TensorDataset {
  Tensor x;       // float32 [n, C, H, W]
  Tensor labels;  // int32 [n]
  int64_t size() const { return labels.numel(); }
};

// One batch of inputs and class labels.
struct Batch {
  Tensor x;       // float32 [b, C, H, W]
  Tensor labels;  // int32 [b]
};

TensorDataset synthetic_images(const std::string& split, int64_t n, const SyntheticImages& options = {});

// The samples of `d` at `indices`, stacked in that order: what a DataLoader's default collate makes of
// dataset[i] for i in a batch. IndexError for an index outside 0..size-1.
Batch collate(const TensorDataset& d, const std::vector<int32_t>& indices);

// The first n samples of the train split with four classes, noise 0.05, seed 2024 and the given sample_shape, in batches of batch_size (the last may be smaller). ValueError for n or
// batch_size < 1 or a bad sample_shape.
std::vector<Batch> calibration_batches(int64_t n, int64_t batch_size, const Shape& sample_shape = {3, 16, 16});

}  // namespace pt
