import { MESSAGES } from '@verdant/domain';
import type { Route } from './+types/checkout';
import { ComingSoon } from '../components/page/ComingSoon.tsx';
import { pageMeta } from '../lib/meta.ts';

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { title: 'Checkout', noindex: true });

/** /checkout (spec §2): placeholder until the cart and order flow land. */
export default function Checkout() {
  return (
    <ComingSoon
      title="Checkout"
      what="Checkout is coming:"
      features={[
        'Pickup in store (free) or delivery to your door',
        `Pay on delivery or at pickup: “${MESSAGES.payOnDeliveryText}”`,
        'Coupon codes and reward points',
        'Purchase limits checked for your licence type before you order',
        'Orders placed offline are queued and confirmed when you are back online',
      ]}
    />
  );
}
