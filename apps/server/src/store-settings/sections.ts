/**
 * Every settings section the server knows (issue 14): importing this file defines them all
 * (registry.ts). One import line per section module.
 */
import '../hours/section.ts';
import '../limits/section.ts';
import '../tax/section.ts';
import '../shipping/zones.ts';
import '../age/section.ts';
import '../deals/display-section.ts';
import '../deals/floor-section.ts';
import '../orders/curbside/section.ts';
import '../delivery/limits-section.ts';
import '../delivery/retention-section.ts';
import '../privacy/section.ts';
import '../loyalty/section.ts';
import '../reviews/section.ts';
export {};
