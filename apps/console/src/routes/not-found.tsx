import { Link } from 'react-router';
import { PageTitle } from '../components/ui.tsx';

export function NotFound() {
  return (
    <main id="main" className="mx-auto max-w-3xl p-6">
      <PageTitle>Page not found</PageTitle>
      <p>
        There is no console page at this address.{' '}
        <Link to="/" className="link">
          Go to the orders
        </Link>
      </p>
    </main>
  );
}
