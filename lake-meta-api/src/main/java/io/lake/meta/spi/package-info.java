/**
 * For backend implementers: the page-token codec and page cursor every backend shares, and the
 * race hooks the contract suite uses to order concurrent calls deterministically. Applications
 * do not need it.
 */
package io.lake.meta.spi;
