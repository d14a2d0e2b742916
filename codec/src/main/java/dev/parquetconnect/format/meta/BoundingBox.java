package dev.parquetconnect.format.meta;

/**
 * Thrift struct {@code BoundingBox} of geospatial statistics: x/y ranges are required, z (height)
 * and m (measure) ranges optional (null when absent).
 */
public record BoundingBox(
    double xmin,
    double xmax,
    double ymin,
    double ymax,
    Double zmin,
    Double zmax,
    Double mmin,
    Double mmax) {}
