// swift-tools-version:5.10
// daybook: a plain-text research diary toolkit for the command line.
import PackageDescription

let package = Package(
    name: "daybook",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "daybook", targets: ["daybook"]),
        .library(name: "DaybookCore", targets: ["DaybookCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.0.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.19"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        // X509: a server certificate for a host given by IP address (Git/ServerCertificate.swift).
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.0.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CCmarkGFM",
            pkgConfig: "libcmark-gfm",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]
        ),
        .systemLibrary(
            name: "CLibGit2",
            pkgConfig: "libgit2",
            providers: [.apt(["libgit2-dev"])]
        ),
        .systemLibrary(
            name: "CPCRE2",
            pkgConfig: "libpcre2-8",
            providers: [.apt(["libpcre2-dev"])]
        ),
        .systemLibrary(
            name: "CPangoCairo",
            pkgConfig: "pangocairo",
            providers: [.apt(["libpango1.0-dev", "libcairo2-dev"])]
        ),
        .target(
            name: "DaybookCore",
            dependencies: [
                "CCmarkGFM", "CLibGit2", "CPCRE2", "CPangoCairo",
                .product(name: "Yams", package: "Yams"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            resources: [.copy("Templates/Builtin")]
        ),
        .target(
            name: "DaybookServer",
            dependencies: [
                "DaybookCore",
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            resources: [.copy("Assets")]
        ),
        .target(name: "DaybookLanguageServer", dependencies: ["DaybookCore"]),
        .executableTarget(
            name: "daybook",
            dependencies: [
                "DaybookCore", "DaybookServer", "DaybookLanguageServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "DaybookCoreTests", dependencies: ["DaybookCore"]),
        .testTarget(name: "DaybookCLITests", dependencies: ["DaybookCore"]),
        .testTarget(name: "DaybookServerTests", dependencies: ["DaybookServer"]),
    ]
)
