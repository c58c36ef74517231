/** A star rating read as one image: "4 out of 5 stars" (the product page's reviews, the account's "My reviews"). */
export function Stars({ value, className = '' }: { value: number; className?: string }) {
  const full = Math.round(value);
  return (
    <span role="img" aria-label={`${value} out of 5 stars`} className={`whitespace-nowrap text-amber-800 ${className}`}>
      {'★'.repeat(full)}
      <span className="text-stone-500">{'☆'.repeat(5 - full)}</span>
    </span>
  );
}
