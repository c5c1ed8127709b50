// Robust bundle adjustment: cameras' poses (and focal lengths) with the 3D points, Levenberg–Marquardt over
// a Schur complement. The method and its references are in CTriangulation.h (`mstri_bundle_adjust`).
#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <vector>

#include "CTriangulation.h"
#include "guard.hpp"
#include "lens_model.hpp"

namespace mstri {
namespace {

/// Parameters of one camera in full: rotation increment ω (3), centre (3), focal scale (1). A camera's
/// free parameters are the first `dof` columns of `Jc · basis` (see `CameraState::basis`).
constexpr int kFull = 7;
using Vector7 = Eigen::Matrix<double, kFull, 1>;
using Matrix7 = Eigen::Matrix<double, kFull, kFull>;
using Matrix27 = Eigen::Matrix<double, 2, kFull>;
using Matrix73 = Eigen::Matrix<double, kFull, 3>;

struct CameraState {
  CameraModel model;               ///< current intrinsics and pose (distortion never changes)
  Eigen::Vector3d center;          ///< world centre C: x_cam = R (x_world − C)
  int role = MSTRI_ROLE_REFINED;
  int dof = 0;                     ///< free parameters: 0 (fixed), 5 (scale camera) or 6, plus 1 with focal
  int offset = 0;                  ///< first row of this camera in the reduced system
  Matrix7 basis = Matrix7::Zero(); ///< full parameters = basis · free parameters (columns beyond dof zero)

  void setPose(const Eigen::Matrix3d &R, const Eigen::Vector3d &C) {
    model.camFromWorld_R = R;
    center = C;
    model.center_world = C;
    model.camFromWorld_t = -(R * C);
  }
};

struct Observation {
  int camera, point;
  double u, v, weight;
};

/// Loss value ρ(s) of a residual norm s and its weight a = ρ'(s)/s: the gradient is w a Jᵀr and the
/// Gauss–Newton curvature w a JᵀJ. In Triggs et al.'s terms (2000, §4.3; ρ as a function of s²) both
/// losses have ρ'' ≤ 0, where the second-order correction 2ρ''rrᵀ is dropped, as Ceres Solver's
/// `Corrector` does: kept, it leaves no curvature along a residual in Huber's linear zone (and negative
/// curvature in Cauchy's), so a camera whose residuals all start there (a pose a degree off) would move
/// only as far as the damping lets it, iteration after iteration.
struct Loss {
  int kind;
  double c;

  double value(double s) const {
    if (kind == MSTRI_LOSS_CAUCHY) return 0.5 * c * c * std::log1p(s * s / (c * c));
    return s <= c ? 0.5 * s * s : c * (s - 0.5 * c);
  }
  double weight(double s) const {
    if (kind == MSTRI_LOSS_CAUCHY) return 1 / (1 + s * s / (c * c));
    return s <= c ? 1 : c / s;
  }
  /// ρ''(s), the exact curvature along the residual, clamped at 0 (Cauchy's is negative beyond c).
  double curvatureAlong(double s) const {
    if (kind == MSTRI_LOSS_CAUCHY) {
      const double q = 1 + s * s / (c * c);
      return std::max(0.0, (2 - q) / (q * q));
    }
    return s <= c ? 1 : 0;
  }
};

/// Pixel of `X` in `cam` and, when asked, the Jacobians of the pixel with respect to the camera's
/// full parameters (ω, C, focal scale) and to the point. False behind the camera or when not finite.
bool projectWithJacobians(const CameraState &cam, const Eigen::Vector3d &X, Eigen::Vector2d &pixel,
                          Matrix27 *Jc, Eigen::Matrix<double, 2, 3> *Jx) {
  const CameraModel &m = cam.model;
  const Eigen::Vector3d p = m.camFromWorld_R * (X - cam.center);
  if (!(p.z() > 1e-9)) return false;
  const double iz = 1 / p.z(), x = p.x() * iz, y = p.y() * iz;
  double xd, yd;
  Eigen::Matrix2d Jd;
  m.distortNormalised(x, y, xd, yd, Jc ? &Jd : nullptr);
  pixel << m.fx * xd + m.skew * yd + m.cx, m.fy * yd + m.cy;
  if (!pixel.allFinite()) return false;
  if (!Jc) return true;
  Eigen::Matrix2d K;
  K << m.fx, m.skew, 0, m.fy;
  Eigen::Matrix<double, 2, 3> P;
  P << iz, 0, -x * iz, 0, iz, -y * iz;
  const Eigen::Matrix<double, 2, 3> B = K * Jd * P;  // ∂pixel/∂x_cam
  Eigen::Matrix3d pCross;
  pCross << 0, -p.z(), p.y(), p.z(), 0, -p.x(), -p.y(), p.x(), 0;
  const Eigen::Matrix<double, 2, 3> dX = B * m.camFromWorld_R;
  *Jx = dX;
  Jc->leftCols<3>() = -B * pCross;  // x_cam' = exp([ω]×) x_cam ≈ x_cam + ω × x_cam = x_cam − [x_cam]× ω
  Jc->middleCols<3>(3) = -dX;
  Jc->col(6) << pixel.x() - m.cx, pixel.y() - m.cy;  // f' = f (1 + δ) scales K's first two rows
  return true;
}

/// Camera and point of the problem, and what the iterations need of the observations.
struct Problem {
  std::vector<CameraState> cameras;
  std::vector<Eigen::Vector3d> points;
  std::vector<Observation> observations;  ///< usable ones only, grouped by point
  std::vector<size_t> pointStart;         ///< observations of point p: [pointStart[p], pointStart[p + 1])
  std::vector<uint8_t> refined;           ///< per point, 1 when two cameras or more see it usably
  Loss loss;
  int referenceCamera = -1, scaleCamera = -1;
  double scaleDistance = 0;
  int reducedSize = 0;

  /// Whether every camera's pose and focal and every point are finite: a step can overflow a camera or
  /// point that no usable observation sees, where the cost would not notice (found by fuzzing).
  bool finite() const {
    for (const CameraState &c : cameras) {
      const CameraModel &m = c.model;
      if (!std::isfinite(m.fx) || !std::isfinite(m.fy) || !std::isfinite(m.skew) || !m.camFromWorld_R.allFinite() ||
          !m.camFromWorld_t.allFinite() || !c.center.allFinite()) {
        return false;
      }
    }
    for (const Eigen::Vector3d &p : points) {
      if (!p.allFinite()) return false;
    }
    return true;
  }

  /// Robust cost Σ wᵢ ρ(sᵢ); infinite when a point falls behind a camera that sees it.
  double cost() const {
    double total = 0;
    for (const Observation &o : observations) {
      Eigen::Vector2d pixel;
      if (!projectWithJacobians(cameras[o.camera], points[o.point], pixel, nullptr, nullptr)) return INFINITY;
      total += o.weight * loss.value((pixel - Eigen::Vector2d(o.u, o.v)).norm());
    }
    return total;
  }

  /// The scale camera's basis: ω free, the centre free across the line to the reference centre only.
  void updateScaleBasis() {
    if (scaleCamera < 0) return;
    CameraState &cam = cameras[scaleCamera];
    const Eigen::Vector3d along = (cam.center - cameras[referenceCamera].center).normalized();
    Eigen::Vector3d u = along.unitOrthogonal(), v = along.cross(u);
    cam.basis.block<3, 1>(3, 3) = u;
    cam.basis.block<3, 1>(3, 4) = v;
  }
};

/// The Gauss–Newton system at the current estimate, points not yet eliminated.
struct System {
  std::vector<Matrix7> U;            ///< per camera, free × free (top-left dof × dof)
  std::vector<Vector7> gc;           ///< per camera gradient
  std::vector<Eigen::Matrix3d> V;    ///< per point
  std::vector<Eigen::Vector3d> gp;   ///< per point gradient
  std::vector<Matrix73> W;           ///< per observation, camera free × point
};

void buildSystem(const Problem &pb, System &sys) {
  const size_t m = pb.cameras.size(), n = pb.points.size();
  sys.U.assign(m, Matrix7::Zero());
  sys.gc.assign(m, Vector7::Zero());
  sys.V.assign(n, Eigen::Matrix3d::Zero());
  sys.gp.assign(n, Eigen::Vector3d::Zero());
  sys.W.resize(pb.observations.size());
  for (size_t i = 0; i < pb.observations.size(); ++i) {
    const Observation &o = pb.observations[i];
    const CameraState &cam = pb.cameras[o.camera];
    Eigen::Vector2d pixel;
    Matrix27 JcFull;
    Eigen::Matrix<double, 2, 3> Jx;
    projectWithJacobians(cam, pb.points[o.point], pixel, &JcFull, &Jx);  // in front: the cost was finite
    const Eigen::Vector2d r = pixel - Eigen::Vector2d(o.u, o.v);
    const double w = o.weight * pb.loss.weight(r.norm());
    const Matrix27 Jc = JcFull * cam.basis;
    const Eigen::Matrix<double, kFull, 2> wJcT = w * Jc.transpose();
    sys.U[o.camera].noalias() += wJcT * Jc;
    sys.gc[o.camera].noalias() += wJcT * r;
    sys.W[i].noalias() = wJcT * Jx;
    sys.V[o.point].noalias() += w * Jx.transpose() * Jx;
    sys.gp[o.point].noalias() += w * Jx.transpose() * r;
  }
}

/// Marquardt's scaling of the damping: the diagonal, kept within [1e-6, 1e32] (as Ceres does).
inline double dampingScale(double diagonal) { return std::min(std::max(diagonal, 1e-6), 1e32); }

/// Solves the damped system by eliminating the points (Triggs et al. §6.1): S δc = −g_c + W V⁻¹ g_p with
/// S = U − W V⁻¹ Wᵀ, then δp = V⁻¹ (−g_p − Wᵀ δc). Also returns the predicted decrease of the cost,
/// ½ δᵀ(λ D δ − g). False when a damped block is not positive definite.
bool solveDamped(const Problem &pb, const System &sys, double lambda, std::vector<Vector7> &stepCamera,
                 std::vector<Eigen::Vector3d> &stepPoint, double &predicted) {
  const size_t m = pb.cameras.size(), n = pb.points.size();
  const int N = pb.reducedSize;
  Eigen::MatrixXd S = Eigen::MatrixXd::Zero(N, N);
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(N);
  for (size_t c = 0; c < m; ++c) {
    const CameraState &cam = pb.cameras[c];
    for (int k = 0; k < cam.dof; ++k) {
      for (int l = 0; l < cam.dof; ++l) S(cam.offset + k, cam.offset + l) = sys.U[c](k, l);
      S(cam.offset + k, cam.offset + k) += lambda * dampingScale(sys.U[c](k, k));
      rhs(cam.offset + k) = -sys.gc[c](k);
    }
  }
  std::vector<Eigen::Matrix3d> Vinv(n);
  for (size_t p = 0; p < n; ++p) {
    if (!pb.refined[p]) continue;
    Eigen::Matrix3d damped = sys.V[p];
    for (int k = 0; k < 3; ++k) damped(k, k) += lambda * dampingScale(sys.V[p](k, k));
    Eigen::LLT<Eigen::Matrix3d> llt(damped);
    if (llt.info() != Eigen::Success) return false;
    Vinv[p] = llt.solve(Eigen::Matrix3d::Identity());
    for (size_t i = pb.pointStart[p]; i < pb.pointStart[p + 1]; ++i) {
      const CameraState &ci = pb.cameras[pb.observations[i].camera];
      if (ci.dof == 0) continue;
      const Matrix73 WiVinv = sys.W[i] * Vinv[p];
      rhs.segment(ci.offset, ci.dof) += (WiVinv * sys.gp[p]).head(ci.dof);
      for (size_t j = pb.pointStart[p]; j < pb.pointStart[p + 1]; ++j) {
        const CameraState &cj = pb.cameras[pb.observations[j].camera];
        if (cj.dof == 0) continue;
        S.block(ci.offset, cj.offset, ci.dof, cj.dof) -=
            (WiVinv * sys.W[j].transpose()).topLeftCorner(ci.dof, cj.dof);
      }
    }
  }
  Eigen::VectorXd dc = Eigen::VectorXd::Zero(N);
  if (N > 0) {
    Eigen::LLT<Eigen::MatrixXd> llt(S);
    if (llt.info() != Eigen::Success) return false;
    dc = llt.solve(rhs);
    if (!dc.allFinite()) return false;
  }
  stepCamera.assign(m, Vector7::Zero());
  for (size_t c = 0; c < m; ++c) {
    const CameraState &cam = pb.cameras[c];
    stepCamera[c].head(cam.dof) = dc.segment(cam.offset, cam.dof);
  }
  predicted = 0;
  for (size_t c = 0; c < m; ++c) {
    const CameraState &cam = pb.cameras[c];
    for (int k = 0; k < cam.dof; ++k) {
      const double d = stepCamera[c](k);
      predicted += 0.5 * d * (lambda * dampingScale(sys.U[c](k, k)) * d - sys.gc[c](k));
    }
  }
  stepPoint.assign(n, Eigen::Vector3d::Zero());
  for (size_t p = 0; p < n; ++p) {
    if (!pb.refined[p]) continue;
    Eigen::Vector3d b = -sys.gp[p];
    for (size_t i = pb.pointStart[p]; i < pb.pointStart[p + 1]; ++i) {
      const CameraState &ci = pb.cameras[pb.observations[i].camera];
      if (ci.dof == 0) continue;
      b.noalias() -= sys.W[i].topRows(ci.dof).transpose() * stepCamera[pb.observations[i].camera].head(ci.dof);
    }
    stepPoint[p] = Vinv[p] * b;
    if (!stepPoint[p].allFinite()) return false;
    for (int k = 0; k < 3; ++k) {
      predicted += 0.5 * stepPoint[p](k) * (lambda * dampingScale(sys.V[p](k, k)) * stepPoint[p](k) - sys.gp[p](k));
    }
  }
  return true;
}

/// Applies a step: rotation increment, centre step (the scale camera's centre back onto its sphere
/// around the reference centre), focal scale, points.
void applyStep(Problem &pb, const std::vector<Vector7> &stepCamera, const std::vector<Eigen::Vector3d> &stepPoint) {
  for (size_t c = 0; c < pb.cameras.size(); ++c) {
    CameraState &cam = pb.cameras[c];
    if (cam.dof == 0) continue;
    const Vector7 full = cam.basis * stepCamera[c];
    const Eigen::Vector3d omega = full.head<3>();
    const double angle = omega.norm();
    Eigen::Matrix3d R = cam.model.camFromWorld_R;
    if (angle > 0) R = Eigen::AngleAxisd(angle, omega / angle).toRotationMatrix() * R;
    Eigen::Vector3d C = cam.center + full.segment<3>(3);
    if (int(c) == pb.scaleCamera) {
      const Eigen::Vector3d &Cref = pb.cameras[pb.referenceCamera].center;
      C = Cref + pb.scaleDistance * (C - Cref).normalized();
    }
    cam.setPose(R, C);
    const double f = 1 + full(6);
    cam.model.fx *= f;
    cam.model.fy *= f;
    cam.model.skew *= f;
  }
  for (size_t p = 0; p < pb.points.size(); ++p) pb.points[p] += stepPoint[p];
  pb.updateScaleBasis();
}

/// Embedded point iterations (C. Jeong, D. Nistér, D. Steedly, R. Szeliski, I.-S. Kweon, "Pushing the
/// envelope of modern methods for bundle adjustment", IEEE TPAMI 34(8), 2012, §4): with the cameras
/// held, each point alone by Levenberg–Marquardt with the loss's exact Gauss–Newton curvature, ρ'' along
/// each residual and ρ'/s across it (Triggs et al. §4.3), as `mstri_triangulate` refines its points.
/// The joint step's curvature, ρ'/s both ways, overstates it in Huber's linear zone, and a point whose
/// residuals all lie there (an outlier among few views) would otherwise creep like Weiszfeld's
/// iteration, a few per cent of the way per step. Only ever lowers each point's cost.
/// - Returns: the total cost afterwards (every usable observation belongs to a refined point).
double refinePointsAlone(Problem &pb, int iterations) {
  double total = 0;
  for (size_t p = 0; p < pb.points.size(); ++p) {
    if (!pb.refined[p]) continue;
    auto evaluate = [&](const Eigen::Vector3d &X, Eigen::Matrix3d *H, Eigen::Vector3d *g) {
      double cost = 0;
      if (H) H->setZero();
      if (g) g->setZero();
      for (size_t i = pb.pointStart[p]; i < pb.pointStart[p + 1]; ++i) {
        const Observation &o = pb.observations[i];
        Eigen::Vector2d pixel;
        Matrix27 Jc;
        Eigen::Matrix<double, 2, 3> Jx;
        if (!projectWithJacobians(pb.cameras[o.camera], X, pixel, H ? &Jc : nullptr, &Jx)) return double(INFINITY);
        const Eigen::Vector2d r = pixel - Eigen::Vector2d(o.u, o.v);
        const double s = r.norm();
        cost += o.weight * pb.loss.value(s);
        if (!H) continue;
        const double a = pb.loss.weight(s), b = pb.loss.curvatureAlong(s);
        Eigen::Matrix2d curvature = a * Eigen::Matrix2d::Identity();
        if (s > 0 && a != b) {
          const Eigen::Vector2d rh = r / s;
          curvature += (b - a) * rh * rh.transpose();
        }
        *H += o.weight * Jx.transpose() * curvature * Jx;
        *g += o.weight * a * Jx.transpose() * r;
      }
      return cost;
    };
    Eigen::Vector3d X = pb.points[p], g;
    Eigen::Matrix3d H;
    double cost = evaluate(X, &H, &g), lambda = 1e-6;
    for (int iteration = 0; iteration < iterations && std::isfinite(cost); ++iteration) {
      bool accepted = false;
      for (int attempt = 0; attempt < 6 && !accepted; ++attempt) {
        Eigen::Matrix3d damped = H;
        for (int k = 0; k < 3; ++k) damped(k, k) += lambda * dampingScale(H(k, k));
        Eigen::LLT<Eigen::Matrix3d> llt(damped);
        if (llt.info() != Eigen::Success) {
          lambda *= 10;
          continue;
        }
        const Eigen::Vector3d step = llt.solve(-g);
        const double newCost = evaluate(X + step, nullptr, nullptr);
        if (newCost < cost) {
          X += step;
          accepted = true;
          const bool small = cost - newCost <= 1e-12 * cost || step.norm() < 1e-10;
          cost = evaluate(X, &H, &g);
          lambda = std::max(lambda / 10, 1e-12);
          if (small) iteration = iterations;
        } else {
          lambda *= 10;
        }
      }
      if (!accepted) break;
    }
    pb.points[p] = X;
    total += cost;
  }
  return total;
}

/// Per-camera residual figures of the current estimate.
void measureCameras(const Problem &pb, std::vector<mstri_bundle_camera_report> &reports, bool after) {
  std::vector<std::vector<double>> norms(pb.cameras.size());
  std::vector<double> robust(pb.cameras.size(), 0), weights(pb.cameras.size(), 0);
  for (const Observation &o : pb.observations) {
    Eigen::Vector2d pixel;
    double s = INFINITY;
    if (projectWithJacobians(pb.cameras[o.camera], pb.points[o.point], pixel, nullptr, nullptr)) {
      s = (pixel - Eigen::Vector2d(o.u, o.v)).norm();
    }
    norms[o.camera].push_back(s);
    robust[o.camera] += o.weight * pb.loss.value(s);
    weights[o.camera] += o.weight;
  }
  for (size_t c = 0; c < pb.cameras.size(); ++c) {
    std::vector<double> &e = norms[c];
    double rms = 0, median = 0, robustRms = 0;
    if (!e.empty()) {
      double sum2 = 0;
      for (double s : e) sum2 += s * s;
      rms = std::sqrt(sum2 / double(e.size()));
      const size_t mid = e.size() / 2;
      std::nth_element(e.begin(), e.begin() + mid, e.end());
      median = e[mid];
      if (e.size() % 2 == 0) median = 0.5 * (median + *std::max_element(e.begin(), e.begin() + mid));
      robustRms = std::sqrt(2 * robust[c] / weights[c]);
    }
    (after ? reports[c].rms_after_px : reports[c].rms_before_px) = rms;
    (after ? reports[c].median_after_px : reports[c].median_before_px) = median;
    (after ? reports[c].robust_rms_after_px : reports[c].robust_rms_before_px) = robustRms;
  }
}

/// Writes cameras (their records with the refined pose and focal) and points.
void writeOutputs(const Problem &pb, const double *cameras, double *camerasOut, double *pointsOut) {
  for (size_t c = 0; c < pb.cameras.size(); ++c) {
    double *r = camerasOut + c * MSTRI_CAMERA_STRIDE;
    if (r != cameras + c * MSTRI_CAMERA_STRIDE) std::copy_n(cameras + c * MSTRI_CAMERA_STRIDE, MSTRI_CAMERA_STRIDE, r);
    const CameraModel &m = pb.cameras[c].model;
    if (pb.cameras[c].dof == 0) continue;  // bit for bit as given
    r[MSTRI_CAM_FX] = m.fx;
    r[MSTRI_CAM_FY] = m.fy;
    r[MSTRI_CAM_SKEW] = m.skew;
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) r[MSTRI_CAM_R + 3 * i + j] = m.camFromWorld_R(i, j);
      r[MSTRI_CAM_T + i] = m.camFromWorld_t(i);
    }
  }
  for (size_t p = 0; p < pb.points.size(); ++p) {
    for (int k = 0; k < 3; ++k) pointsOut[3 * p + k] = pb.points[p](k);
  }
}

/// The camera with the most usable observations among those `allowed`; −1 when none has any.
int mostObserved(const std::vector<int> &counts, const std::vector<bool> &allowed) {
  int best = -1;
  for (size_t c = 0; c < counts.size(); ++c) {
    if (allowed[c] && counts[c] > 0 && (best < 0 || counts[c] > counts[best])) best = int(c);
  }
  return best;
}

mstri_status bundleAdjust(const double *cameras, size_t m, const uint8_t *fixedCameras, const int32_t *indices,
                          const double *values, size_t observationCount, const double *points, size_t n,
                          const mstri_bundle_options &opts, double *camerasOut, double *pointsOut,
                          std::vector<mstri_bundle_camera_report> &reports, mstri_bundle_summary &summary) {
  Problem pb;
  pb.loss = Loss{opts.loss, opts.loss_scale_px};
  pb.cameras.resize(m);
  for (size_t c = 0; c < m; ++c) {
    if (!CameraModel::from(cameras + c * MSTRI_CAMERA_STRIDE, pb.cameras[c].model)) return MSTRI_INVALID_ARGUMENT;
    pb.cameras[c].setPose(pb.cameras[c].model.camFromWorld_R, pb.cameras[c].model.center_world);
  }
  pb.points.resize(n);
  for (size_t p = 0; p < n; ++p) {
    pb.points[p] = Eigen::Vector3d(points[3 * p], points[3 * p + 1], points[3 * p + 2]);
    if (!pb.points[p].allFinite()) return MSTRI_INVALID_ARGUMENT;
  }
  // Usable observations, then points seen usably by two cameras or more, grouped by point.
  std::vector<Observation> usable;
  std::vector<int> perPoint(n, 0), firstCamera(n, -1);
  std::vector<uint8_t> twoCameras(n, 0);
  for (size_t i = 0; i < observationCount; ++i) {
    const int32_t c = indices[2 * i], p = indices[2 * i + 1];
    if (c < 0 || size_t(c) >= m || p < 0 || size_t(p) >= n) return MSTRI_INVALID_ARGUMENT;
    reports[c].observations += 1;
    const Observation o{c, p, values[3 * i], values[3 * i + 1], values[3 * i + 2]};
    if (!std::isfinite(o.u) || !std::isfinite(o.v) || !std::isfinite(o.weight) || !(o.weight > 0)) continue;
    Eigen::Vector2d pixel;
    if (!projectWithJacobians(pb.cameras[c], pb.points[p], pixel, nullptr, nullptr)) continue;
    usable.push_back(o);
    perPoint[p] += 1;
    if (firstCamera[p] < 0) firstCamera[p] = c;
    if (firstCamera[p] != c) twoCameras[p] = 1;
  }
  pb.refined.assign(n, 0);
  pb.pointStart.assign(n + 1, 0);
  for (size_t p = 0; p < n; ++p) {
    pb.refined[p] = twoCameras[p];
    pb.pointStart[p + 1] = pb.pointStart[p] + (pb.refined[p] ? perPoint[p] : 0);
  }
  pb.observations.resize(pb.pointStart[n]);
  {
    std::vector<size_t> next(pb.pointStart.begin(), pb.pointStart.end() - 1);
    for (const Observation &o : usable) {
      if (pb.refined[o.point]) pb.observations[next[o.point]++] = o;
    }
  }
  std::vector<int> counts(m, 0);
  for (const Observation &o : pb.observations) counts[o.camera] += 1;
  for (size_t c = 0; c < m; ++c) reports[c].used_observations = counts[c];
  summary.used_observations = int32_t(pb.observations.size());
  summary.refined_points = 0;
  for (uint8_t r : pb.refined) summary.refined_points += r;

  // Gauge: the caller's fixed cameras; with fewer than two, a reference and a scale camera.
  std::vector<bool> fixed(m, false);
  int fixedCount = 0;
  for (size_t c = 0; c < m; ++c) {
    fixed[c] = fixedCameras && fixedCameras[c];
    if (fixed[c]) {
      pb.cameras[c].role = MSTRI_ROLE_FIXED;
      ++fixedCount;
    }
  }
  if (opts.reference_camera >= 0 && size_t(opts.reference_camera) >= m) return MSTRI_INVALID_ARGUMENT;
  if (opts.scale_camera >= 0 && size_t(opts.scale_camera) >= m) return MSTRI_INVALID_ARGUMENT;
  if (opts.reference_camera >= 0) {
    pb.referenceCamera = opts.reference_camera;
  } else if (fixedCount == 1) {
    pb.referenceCamera = int(std::find(fixed.begin(), fixed.end(), true) - fixed.begin());
  } else if (fixedCount == 0) {
    pb.referenceCamera = std::max(0, mostObserved(counts, std::vector<bool>(m, true)));
  }
  if (pb.referenceCamera >= 0) {
    if (!fixed[pb.referenceCamera]) ++fixedCount;
    fixed[pb.referenceCamera] = true;
    pb.cameras[pb.referenceCamera].role = MSTRI_ROLE_REFERENCE;
  }
  if (fixedCount == 1) {
    std::vector<bool> free(m);
    for (size_t c = 0; c < m; ++c) free[c] = !fixed[c];
    pb.scaleCamera = opts.scale_camera >= 0 && free[opts.scale_camera] ? opts.scale_camera : mostObserved(counts, free);
    if (pb.scaleCamera >= 0) {
      pb.cameras[pb.scaleCamera].role = MSTRI_ROLE_SCALE;
      pb.scaleDistance = (pb.cameras[pb.scaleCamera].center - pb.cameras[pb.referenceCamera].center).norm();
    }
  }
  summary.reference_camera = pb.referenceCamera;
  summary.scale_camera = pb.scaleCamera;
  mstri_status status = MSTRI_OK;
  for (size_t c = 0; c < m; ++c) {
    reports[c].role = pb.cameras[c].role;
    if (!fixed[c] && counts[c] < opts.min_camera_observations) {
      reports[c].status = MSTRI_TOO_FEW_OBSERVATIONS;
      status = MSTRI_TOO_FEW_OBSERVATIONS;
    }
  }
  measureCameras(pb, reports, false);
  measureCameras(pb, reports, true);
  summary.initial_cost = summary.final_cost = pb.cost();
  if (status != MSTRI_OK) return status;
  if (pb.scaleCamera >= 0 && !(pb.scaleDistance > 1e-9)) return MSTRI_DEGENERATE;

  // Free parameters and their place in the reduced system.
  for (size_t c = 0; c < m; ++c) {
    CameraState &cam = pb.cameras[c];
    if (fixed[c]) continue;
    const bool scale = int(c) == pb.scaleCamera;
    cam.dof = (scale ? 5 : 6) + (opts.refine_focal ? 1 : 0);
    cam.offset = pb.reducedSize;
    pb.reducedSize += cam.dof;
    cam.basis.setZero();
    cam.basis.topLeftCorner<3, 3>().setIdentity();
    if (!scale) cam.basis.block<3, 3>(3, 3).setIdentity();
    if (opts.refine_focal) cam.basis(6, cam.dof - 1) = 1;
  }
  pb.updateScaleBasis();

  // Levenberg–Marquardt with Nielsen's damping update.
  double cost = summary.initial_cost;
  if (!std::isfinite(cost)) return MSTRI_DEGENERATE;
  double lambda = 1e-4, nu = 2;
  System sys;
  std::vector<Vector7> stepCamera;
  std::vector<Eigen::Vector3d> stepPoint;
  int iteration = 0;
  bool converged = false;
  while (iteration < opts.max_iterations && !converged) {
    ++iteration;
    buildSystem(pb, sys);
    double gradient = 0;
    for (size_t c = 0; c < m; ++c) gradient = std::max(gradient, sys.gc[c].head(pb.cameras[c].dof).lpNorm<Eigen::Infinity>());
    for (size_t p = 0; p < n; ++p) gradient = std::max(gradient, sys.gp[p].lpNorm<Eigen::Infinity>());
    if (gradient < 1e-12 * std::max(1.0, cost)) {
      converged = true;
      break;
    }
    bool accepted = false, solved = false;
    for (int attempt = 0; attempt < 30 && !accepted; ++attempt) {
      double predicted = 0;
      if (!solveDamped(pb, sys, lambda, stepCamera, stepPoint, predicted)) {
        lambda *= nu;
        nu *= 2;
        continue;
      }
      solved = true;
      // The cameras' step (radians, metres, focal ratio) decides: points with all their residuals in
      // the loss's tail, and cameras along a direction the loss's tail barely constrains (Huber's
      // reweighting converges only linearly there), creep on long after the figures have settled.
      double cameraStep = 0;
      for (size_t c = 0; c < m; ++c) cameraStep = std::max(cameraStep, stepCamera[c].lpNorm<Eigen::Infinity>());
      const std::vector<CameraState> camerasBefore = pb.cameras;
      const std::vector<Eigen::Vector3d> pointsBefore = pb.points;
      applyStep(pb, stepCamera, stepPoint);
      const double newCost = pb.cost();
      const double rho = predicted > 0 ? (cost - newCost) / predicted : -1;
      if (std::isfinite(newCost) && newCost < cost && rho > 0 && pb.finite()) {
        const double refinedCost = refinePointsAlone(pb, 5);
        converged = cost - refinedCost <= opts.function_tolerance * cost ||
                    (pb.reducedSize > 0 && cameraStep <= opts.step_tolerance);
        cost = refinedCost;
        lambda *= std::max(1.0 / 3, 1 - std::pow(2 * rho - 1, 3));
        nu = 2;
        accepted = true;
      } else {
        pb.cameras = camerasBefore;
        pb.points = pointsBefore;
        lambda *= nu;
        nu *= 2;
      }
    }
    if (!accepted) {
      // No damping finds a lower cost: a minimum to working precision. Never solved: degenerate.
      if (!solved) return MSTRI_DEGENERATE;
      converged = true;
    }
  }
  // The header promises finite outputs: a state that is not (points refined alone can overflow too)
  // is a degenerate problem, and the caller gets its inputs back.
  if (!pb.finite()) return MSTRI_DEGENERATE;
  summary.iterations = iteration;
  summary.converged = converged ? 1 : 0;
  summary.final_cost = cost;
  measureCameras(pb, reports, true);
  writeOutputs(pb, cameras, camerasOut, pointsOut);
  return MSTRI_OK;
}

}  // namespace
}  // namespace mstri

extern "C" mstri_bundle_options mstri_default_bundle_options(void) {
  mstri_bundle_options o;
  o.loss = MSTRI_LOSS_HUBER;
  o.loss_scale_px = 2;
  o.max_iterations = 100;
  o.refine_focal = 0;
  o.reference_camera = -1;
  o.scale_camera = -1;
  o.function_tolerance = 1e-7;
  o.step_tolerance = 1e-6;
  o.min_camera_observations = 6;
  return o;
}

extern "C" mstri_status mstri_check_bundle_options(const mstri_bundle_options *o) {
  if (!o) return MSTRI_INVALID_ARGUMENT;
  const bool ok = (o->loss == MSTRI_LOSS_HUBER || o->loss == MSTRI_LOSS_CAUCHY) && std::isfinite(o->loss_scale_px) &&
                  o->loss_scale_px > 0 && o->max_iterations >= 1 && o->max_iterations <= 1000 &&
                  (o->refine_focal == 0 || o->refine_focal == 1) && o->reference_camera >= -1 &&
                  o->scale_camera >= -1 && std::isfinite(o->function_tolerance) && o->function_tolerance >= 0 &&
                  std::isfinite(o->step_tolerance) && o->step_tolerance >= 0 && o->min_camera_observations >= 3;
  return ok ? MSTRI_OK : MSTRI_INVALID_ARGUMENT;
}

extern "C" mstri_status mstri_bundle_adjust(const double *cameras, size_t camera_count, const uint8_t *fixed_cameras,
                                            const int32_t *observation_indices, const double *observation_values,
                                            size_t observation_count, const double *points, size_t point_count,
                                            const mstri_bundle_options *options, double *cameras_out,
                                            double *points_out, mstri_bundle_camera_report *camera_reports_out,
                                            mstri_bundle_summary *summary_out) {
  return mstri::guarded([&]() -> mstri_status {
    const mstri_bundle_options opts = options ? *options : mstri_default_bundle_options();
    if (mstri_check_bundle_options(&opts) != MSTRI_OK) return MSTRI_INVALID_ARGUMENT;
    if (!cameras || camera_count == 0 || !cameras_out || (point_count > 0 && (!points || !points_out)) ||
        (observation_count > 0 && (!observation_indices || !observation_values))) {
      return MSTRI_INVALID_ARGUMENT;
    }
    std::vector<mstri_bundle_camera_report> reports(camera_count);
    for (mstri_bundle_camera_report &r : reports) r = mstri_bundle_camera_report{MSTRI_OK, MSTRI_ROLE_REFINED, 0, 0, 0, 0, 0, 0, 0, 0};
    mstri_bundle_summary summary{0, 0, -1, -1, 0, 0, 0, 0};
    const mstri_status status =
        mstri::bundleAdjust(cameras, camera_count, fixed_cameras, observation_indices, observation_values,
                            observation_count, points, point_count, opts, cameras_out, points_out, reports, summary);
    if (status != MSTRI_OK) {
      // The inputs as the outputs: a failed call never leaves half-written buffers.
      if (cameras_out != cameras) std::copy_n(cameras, camera_count * MSTRI_CAMERA_STRIDE, cameras_out);
      if (point_count > 0 && points_out != points) std::copy_n(points, 3 * point_count, points_out);
    }
    if (camera_reports_out) std::copy(reports.begin(), reports.end(), camera_reports_out);
    if (summary_out) *summary_out = summary;
    return status;
  });
}
