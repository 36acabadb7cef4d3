import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "react-router-dom";
import { pathFor } from "../../app/paths.ts";
import type { ScreenProps } from "../../app/route-screen.tsx";
import { useServices } from "../../app/services.tsx";

export default function HomeScreen({ locale }: ScreenProps) {
  const brandName = useServices().brand.name;
  const { t } = useLingui();
  const features = [
    { title: t`Build`, text: t`Answer three questions and get a portfolio built for you.` },
    {
      title: t`Understand`,
      text: t`See its value at risk, diversification, and where its risk comes from.`,
    },
    { title: t`Stress-test`, text: t`Shock the markets, replay real crises and backtest it.` },
    { title: t`Optimise`, text: t`Lower its risk within the limits you choose.` },
    { title: t`Simulate`, text: t`Invest month by month and see the range of outcomes.` },
    { title: t`Compete`, text: t`Pick stocks in the banana challenge and beat the monkey.` },
  ];
  return (
    <div className="home">
      <section className="hero" aria-labelledby="home-title">
        <h1 id="home-title">
          <Trans>Invest with your eyes open</Trans>
        </h1>
        <p className="lead">
          <Trans>
            {brandName} builds a portfolio from three questions and shows you its risk in plain
            words and clear charts.
          </Trans>
        </p>
        <div className="hero-actions">
          <Link className="button primary large" to={pathFor("create-q1", locale)}>
            <Trans>Create your portfolio</Trans>
          </Link>
          <Link className="button ghost large" to={pathFor("markets", locale)}>
            <Trans>Follow the markets</Trans>
          </Link>
        </div>
      </section>
      <section aria-labelledby="features-title">
        <h2 id="features-title" className="visually-hidden">
          <Trans>What you can do</Trans>
        </h2>
        <ul className="feature-grid">
          {features.map((f) => (
            <li key={f.title} className="card">
              <h3>{f.title}</h3>
              <p>{f.text}</p>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
