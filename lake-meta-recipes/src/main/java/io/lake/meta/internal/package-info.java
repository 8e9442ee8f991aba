/**
 * Plumbing the recipe packages share: listener delivery off the recipes' locks, and the lease
 * settings every lease-based builder validates the same way. Not API: the module does not export
 * this package, and anything here may change in any release.
 */
@NullMarked
package io.lake.meta.internal;

import org.jspecify.annotations.NullMarked;
