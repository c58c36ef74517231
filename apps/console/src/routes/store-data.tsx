/**
 * Download store data (issue 31 "the store owns its data and can leave"), owners only: what the
 * archive holds, the download (GET /stores/:storeId/export.zip, streamed by the server), and the file
 * format — every file and column with its meaning, read from the server (GET …/export/format), the
 * same list docs/operators/export.md documents.
 */
import { ErrorNote, Loading, PageTitle } from '../components/ui.tsx';
import { api } from '../lib/api.ts';
import { useSession } from '../lib/session.tsx';
import { useResource } from '../lib/use-resource.ts';
import type { StoreExportFormat } from '../lib/types.ts';
import { useStore, useTitle } from './layout.tsx';

export function StoreDataPage() {
  useTitle('Download store data');
  const { store } = useStore();
  const { staff } = useSession();
  const owner = staff?.role === 'owner';
  const format = useResource(owner ? String(store.id) : null, () => api<StoreExportFormat>('GET', `/stores/${store.id}/export/format`));
  if (!owner)
    return (
      <>
        <PageTitle>Download store data</PageTitle>
        <p>Only owners can download the store’s data.</p>
      </>
    );
  return (
    <>
      <PageTitle>Download store data</PageTitle>
      <section className="card mb-4 grid max-w-3xl gap-3" aria-labelledby="store-data-what">
        <h2 id="store-data-what" className="text-lg font-semibold">
          What the download holds
        </h2>
        <p>
          Everything {store.name} keeps, in one zip file, so the store owns its data and can take it anywhere. Each list comes twice: as a
          spreadsheet (CSV) and as JSON.
        </p>
        <ul className="list-disc pl-6">
          <li>Customers: every account with phone, e-mail, name, date of birth and the ID and medical card checks (never the password).</li>
          <li>Consents: every yes and no to texts and e-mails, with the words the shopper was shown.</li>
          <li>Orders and their lines: totals, discounts, taxes and what each order sold.</li>
          <li>The menu: products, sizes, prices and stock, in the menu import format.</li>
          <li>Deals: every deal with its whole setup.</li>
        </ul>
        <p>
          Money is in cents (<code>total_cents</code>: 5398 is $53.98); the spreadsheet files add dollars beside each amount. Times are UTC. It holds
          personal data of your customers: keep the file safe.
        </p>
        <p>
          <a className="btn inline-block" href={`/api/console/stores/${store.id}/export.zip`} download>
            Download store data
          </a>{' '}
          <a className="link" href="#store-data-format">
            File format: every file and column
          </a>
        </p>
      </section>
      <section className="grid max-w-5xl gap-3" aria-labelledby="store-data-format">
        <h2 id="store-data-format" className="text-lg font-semibold">
          File format
        </h2>
        <p>The same as docs/operators/export.md. A CSV cell that starts with =, +, - or @ gets a leading ' so no spreadsheet runs it as a formula.</p>
        <ErrorNote>{format.error}</ErrorNote>
        {format.loading && !format.data ? <Loading /> : null}
        {format.data?.files.map((file) => (
          <details key={file.name} className="card">
            <summary className="cursor-pointer font-semibold">
              {file.name}.csv, {file.name}.json
            </summary>
            <p className="my-2">{file.about}</p>
            <div className="overflow-x-auto" role="region" aria-label={`Columns of ${file.name}, scrollable`} tabIndex={0}>
              <table className="data-table" aria-label={`Columns of ${file.name}`}>
                <thead>
                  <tr>
                    <th scope="col">Column</th>
                    <th scope="col">Meaning</th>
                  </tr>
                </thead>
                <tbody>
                  {file.columns.map((c) => (
                    <tr key={c.name}>
                      <td>
                        <code>{c.name}</code>
                      </td>
                      <td>{c.meaning}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        ))}
      </section>
    </>
  );
}
