import ArgumentParser

/// The filters `motion fuse` can run.
enum FilterName: String, CaseIterable, ExpressibleByArgument {
    case inertial, madgwick, mahony, complementary
}
