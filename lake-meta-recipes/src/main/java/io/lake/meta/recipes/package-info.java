/**
 * The types the recipe packages share in their API: {@link io.lake.meta.recipes.TypedPageRequest}
 * and {@link io.lake.meta.recipes.TypedPage}, one bounded page of a recipe's decoded records (the
 * operation journal's, the table registry's) with the store's continuation token.
 */
@NullMarked
package io.lake.meta.recipes;

import org.jspecify.annotations.NullMarked;
