import ArgumentParser

/// The floating-point type `motion fuse` computes in.
enum Precision: String, CaseIterable, ExpressibleByArgument {
    case double, float
}
