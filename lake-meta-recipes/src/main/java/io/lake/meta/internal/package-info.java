/**
 * Plumbing the recipe packages share, spelled once: argument checks ({@code Checks}), the builders'
 * set-once rule ({@code Options}), the lease settings every lease-based builder validates the same
 * way ({@code LeaseSettings}), listener lists delivered on an executor off the recipes' locks
 * ({@code Listeners}), and background rounds on a scheduler ({@code BackgroundRounds}). Not API:
 * the module does not export this package, and anything here may change in any release.
 */
@NullMarked
package io.lake.meta.internal;

import org.jspecify.annotations.NullMarked;
